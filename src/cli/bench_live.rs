//! The live-class part of `pnlab bench`: a server with 500 simulated
//! students answering one question (see `pnlab::live::load`).

use std::process::ExitCode;

use super::UserError;

/// The suite's name.
pub const SUITE: &str = "live-class";

/// Students the suite simulates: a large lecture hall.
#[cfg(feature = "serve")]
const STUDENTS: usize = 500;

#[cfg(feature = "serve")]
pub fn run(json: bool) -> Result<ExitCode, UserError> {
    let r = pnlab::live::load::run(STUDENTS)?;
    if json {
        let mut row = serde_json::to_value(&r)?;
        row["suite"] = SUITE.into();
        outln!("{row}");
    } else {
        outln!(
            "{SUITE:<13} {} students  answer→histogram p50 {:.2} ms  p99 {:.2} ms  max {:.2} ms  {} B/student (process RSS)  {} B/student (room)  {} wire B/student",
            r.students,
            r.p50_ms,
            r.p99_ms,
            r.max_ms,
            r.bytes_per_student,
            r.room_bytes_per_student,
            r.wire_bytes_per_student
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "serve"))]
pub fn run(_json: bool) -> Result<ExitCode, UserError> {
    Err(super::UsageError::NotBuiltWith {
        feature: super::error::Feature::Serve,
        consequence: ", so it cannot run the live-class bench suite",
    }
    .into())
}

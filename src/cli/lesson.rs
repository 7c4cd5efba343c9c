//! `pnlab lesson`: check lessons headless, print their answer key, write
//! their frames, or open one in the app.
//!
//! - `pnlab lesson --check PATH...` plays every step of every lesson
//!   (directories are searched for `*.lesson.toml`); exit 0, or exit 2
//!   with `error: FILE:LINE:COL: …` for the first broken step.
//! - `pnlab lesson FILE --answers` prints each step's question with the
//!   engine's answer and its reason (the teacher's key).
//! - `pnlab lesson FILE --export-frames DIR` writes one SVG and one PNG
//!   per step (and per answered question) for slides.
//! - `pnlab lesson FILE` (or `pnlab FILE.lesson.toml`) opens the app.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use pnlab::lesson::{self, Lesson, Response};

use super::{UsageError, UserError};

#[derive(Args, Debug)]
pub struct LessonArgs {
    /// Lesson files (`*.lesson.toml`); with `--check`, directories too.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Play every step of every lesson headless and report the first
    /// broken one (`error: FILE:LINE:COL: …`, exit 2).
    #[arg(long)]
    pub check: bool,
    /// Print each step's question, the engine's answer and its reason.
    #[arg(long)]
    pub answers: bool,
    /// Write one SVG (and PNG) frame per step into DIR.
    #[arg(long, value_name = "DIR")]
    pub export_frames: Option<PathBuf>,
    /// Opening the lesson in the app: the app's own flags.
    #[command(flatten)]
    pub app: super::AppFlags,
    /// With --export-frames: the frames' size in pixels, WIDTHxHEIGHT
    /// (default 1920x1080, 16:9).
    #[arg(long, value_name = "WxH", requires = "export_frames")]
    pub frame_size: Option<String>,
}

/// Lesson files under `path` (itself when it is a file), sorted.
fn lesson_files(path: &Path) -> Result<Vec<PathBuf>, UserError> {
    if !path.is_dir() {
        if !path.exists() {
            return Err(UsageError::NoSuchPath(path.to_path_buf()).into());
        }
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|source| UsageError::ReadDir {
            dir: dir.clone(),
            source,
        })?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if lesson::is_lesson_path(&p) {
                out.push(p);
            }
        }
    }
    if out.is_empty() {
        return Err(UsageError::NoLessonInDir(path.to_path_buf()).into());
    }
    out.sort();
    Ok(out)
}

fn load(path: &Path) -> Result<Lesson, UserError> {
    Ok(Lesson::load_file(path)?)
}

pub fn run(args: LessonArgs) -> Result<ExitCode, UserError> {
    if args.paths.is_empty() {
        return Err(UsageError::NoLessonFile.into());
    }
    if args.check {
        let mut files = Vec::new();
        for p in &args.paths {
            files.extend(lesson_files(p)?);
        }
        let (mut steps, mut questions) = (0, 0);
        for f in &files {
            let l = load(f)?;
            l.check()?;
            let q = l.steps.iter().filter(|s| s.ask.is_some()).count();
            outln!(
                "ok  {}: {} steps, {q} questions",
                f.display(),
                l.steps.len()
            );
            steps += l.steps.len();
            questions += q;
        }
        outln!(
            "{} lessons, {steps} steps, {questions} questions: all played",
            files.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if args.paths.len() > 1 {
        return Err(UsageError::SeveralLessons.into());
    }
    let path = &args.paths[0];
    let l = load(path)?;
    if args.answers {
        print_answers(&l)?;
    }
    if let Some(dir) = &args.export_frames {
        let size = match &args.frame_size {
            Some(t) => lesson::frames::FrameSize::parse(t)?,
            None => lesson::frames::FrameSize::default(),
        };
        let written = lesson::frames::export(&l, dir, size)?;
        outln!("wrote {} files to {}", written.len(), dir.display());
    }
    if args.answers || args.export_frames.is_some() {
        return Ok(ExitCode::SUCCESS);
    }
    super::open_lesson(l, &args.app)
}

fn print_answers(l: &Lesson) -> Result<(), UserError> {
    outln!("{}", l.title);
    l.play_all(|st| {
        print_step(st);
        Ok(())
    })?;
    Ok(())
}

/// One step of the answer key: where the search stands, then the
/// question with the engine's answer and its reason.
fn print_step(st: &lesson::StepState) {
    let title = st.title.clone().unwrap_or_default();
    outln!(
        "\nstep {}/{} {title} [{} at iteration {}, {}]",
        st.index + 1,
        st.count,
        st.setting.algo,
        st.search.counters().iterations,
        lesson::player::status_words(st.search.as_ref())
    );
    let Some(q) = &st.question else { return };
    outln!("  Q: {}", q.prompt);
    outln!("  A: {}", q.answer_text());
    for r in &q.reason {
        outln!("     {r}");
    }
    if let Some(r) = &st.reveal {
        outln!(
            "  shown after the answer: {}",
            r.plain_text().replace('\n', " ")
        );
    }
    if let Some(c) = q.choices.first() {
        let v = q.check(&st.snapshot, &Response::Node(c.id));
        outln!("  (clicking {}: {})", c.path, v.headline);
    }
}

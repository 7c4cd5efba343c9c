//! `pnlab serve`: the web page, the lessons and live classes over HTTP
//! (docs/live-class.md). Runs until Ctrl-C, then finishes open requests
//! and exits 0.

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::UserError;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on: 127.0.0.1 is this machine only; 0.0.0.0
    /// opens it to the classroom's network.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: String,
    /// The web page's folder (what `scripts/web.sh` builds).
    #[arg(long, default_value = "web/dist", value_name = "DIR")]
    pub dist: PathBuf,
    /// Offer the `*.lesson.toml` files of this folder too (besides the
    /// bundled lessons).
    #[arg(long, value_name = "DIR")]
    pub lessons: Option<PathBuf>,
    /// Students in one live class.
    #[arg(long, default_value_t = 1000)]
    pub max_students: u64,
    /// Live classes open at once.
    #[arg(long, default_value_t = 100)]
    pub max_rooms: u64,
    /// Forget a live class nobody moved for this many minutes.
    #[arg(long, default_value_t = 180)]
    pub idle_minutes: u64,
}

#[cfg(feature = "serve")]
pub fn run(args: ServeArgs) -> Result<ExitCode, UserError> {
    use std::sync::Arc;
    use std::time::Duration;

    use pnlab::live::lessons::Catalogue;
    use pnlab::live::rooms::Limits;
    use pnlab::live::server::{check_dist, start, ServeConfig};
    use pnlab::params::bounds;

    let bind: IpAddr = args
        .bind
        .trim()
        .parse()
        .map_err(|_| super::UsageError::BadValue {
            flag: "--bind",
            value: args.bind.clone(),
            expected: "an IP address such as 127.0.0.1 (this machine) or 0.0.0.0 (every network)",
        })?;
    let max_students = bounds::count("--max-students", args.max_students, 1, 100_000)? as usize;
    let max_rooms = bounds::count("--max-rooms", args.max_rooms, 1, 10_000)? as usize;
    let idle = bounds::count("--idle-minutes", args.idle_minutes, 1, 7 * 24 * 60)?;
    check_dist(&args.dist)?;
    let catalogue = match &args.lessons {
        Some(dir) => Catalogue::with_folder(dir)?,
        None => Catalogue::bundled(),
    };
    let config = ServeConfig {
        bind,
        port: args.port,
        dist: args.dist.clone(),
        catalogue: Arc::new(catalogue),
        limits: Limits {
            max_rooms,
            max_students,
            idle: Duration::from_secs(idle * 60),
            ..Limits::default()
        },
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(super::UsageError::ServerThreads)?;
    runtime.block_on(async move {
        let server = start(config).await?;
        let port = server.addr.port();
        if bind.is_unspecified() {
            let lan = lan_address()
                .map(|ip| format!("http://{ip}:{port}/"))
                .unwrap_or_else(|| format!("http://<this machine's address>:{port}/"));
            outln!(
                "pnlab serve: http://127.0.0.1:{port}/ here, {lan} for the classroom's network (Ctrl-C stops)"
            );
        } else {
            outln!(
                "pnlab serve: http://{} (Ctrl-C stops)",
                url_host(server.addr)
            );
        }
        let _ = tokio::signal::ctrl_c().await;
        server
            .shutdown()
            .await
            .map_err(super::UsageError::ServerStopped)?;
        Ok(ExitCode::SUCCESS)
    })
}

/// `127.0.0.1:8080/` or `[::1]:8080/`.
#[cfg(feature = "serve")]
fn url_host(addr: std::net::SocketAddr) -> String {
    format!("{addr}/")
}

/// This machine's address on its network: the source address the system
/// would use to reach a private address (a UDP socket that is connected,
/// never sent on). `None` with no network.
#[cfg(feature = "serve")]
fn lan_address() -> Option<IpAddr> {
    let s = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    s.connect("10.255.255.255:9").ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

#[cfg(not(feature = "serve"))]
pub fn run(args: ServeArgs) -> Result<ExitCode, UserError> {
    let _ = (args.port, args.bind.parse::<IpAddr>().ok(), &args.dist);
    Err(super::UsageError::NotBuiltWith {
        feature: super::error::Feature::Serve,
        consequence: ", so it cannot serve; build it with `--features serve`",
    }
    .into())
}

//! The command line: the only module that imports clap. `run` reads as the
//! pipeline: `Scenario::from_path → engine::run → export / charts / report`.

use crate::engine::{self, Options};
use crate::error::{Error, Result};
use crate::results::{RunResults, Status};
use crate::scenario::Scenario;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const EXAMPLES: &str = "\
Examples:
  keyheat run scenarios/orders-by-date.toml
  keyheat run scenarios/orders-by-date.toml --trials 50 --seed 7 --out /tmp/orders
  keyheat run scenarios/sensor-unbucketed.toml --fail-on-breach   # exit 3 on a predicted breach
  keyheat check scenarios/chat-by-channel.toml                    # validate only

Exit codes: 0 run completed; 2 bad input; 3 predicted breach with --fail-on-breach; 1 anything else.";

/// keyheat: predict hot partitions, throttling and size-ceiling breaches of a
/// NoSQL key design before the table exists.
#[derive(Debug, Parser)]
#[command(name = "keyheat", version, about, after_help = EXAMPLES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Simulate a scenario and write summary.json, CSV tables, charts and report.md.
    Run {
        /// The scenario file (TOML, schema version 1).
        scenario: PathBuf,
        /// Output folder (default: output/<scenario name>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Trials instead of the scenario's `simulation.trials`.
        #[arg(long)]
        trials: Option<u32>,
        /// Seed instead of the scenario's `simulation.seed`.
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (default: all cores). Results are identical for any value.
        #[arg(long)]
        threads: Option<usize>,
        /// Exit with code 3 when any check of the base design fails.
        #[arg(long)]
        fail_on_breach: bool,
        /// No progress bar or timing line on stderr.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Validate a scenario file without simulating it.
    Check {
        /// The scenario file.
        scenario: PathBuf,
    },
}

/// Parses the command line, runs it, and maps the outcome to an exit code
/// (0 ok, 1 other error, 2 bad input, 3 breach with `--fail-on-breach`).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(if e.is_bad_input() { 2 } else { 1 })
        }
    }
}

fn dispatch(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Check { scenario } => {
            let s = Scenario::from_path(&scenario)?;
            crate::store::Model::new(&s.store, &s.source_path)?;
            println!(
                "{}: ok ({} tables, {} access patterns, {} variants)",
                scenario.display(),
                s.tables.len(),
                s.access_patterns.len(),
                s.variants.len()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Run {
            scenario,
            out,
            trials,
            seed,
            threads,
            fail_on_breach,
            quiet,
        } => {
            let started = Instant::now();
            let s = Scenario::from_path(&scenario)?;
            let options = Options { trials, seed };
            let out = out.unwrap_or_else(|| Path::new("output").join(&s.name));
            let results = with_threads(threads, || simulate(&s, &options, quiet))?;
            let files = write_outputs(&results, &out)?;
            if !quiet {
                eprintln!(
                    "keyheat: {} trials in {:.2} s; wrote {} files to {}",
                    results.trials,
                    started.elapsed().as_secs_f64(),
                    files.len(),
                    out.display()
                );
            }
            print_verdicts(&results, &out);
            let failed = results.verdicts.iter().any(|v| v.status == Status::Fail);
            Ok(if fail_on_breach && failed {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            })
        }
    }
}

fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    match threads {
        None => f(),
        Some(0) => Err(Error::usage("--threads must be at least 1")),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::usage(format!("cannot start {n} threads: {e}")))?
            .install(f),
    }
}

/// Runs the engine with a progress bar on stderr, shown only for runs over a
/// second and only when stderr is a terminal.
fn simulate(s: &Scenario, options: &Options, quiet: bool) -> Result<RunResults> {
    let total = engine::total_trials(s, options);
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    if let Ok(style) =
        ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} trials ({eta} left)")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(s.name.clone());
    let start = Instant::now();
    let shown = AtomicBool::new(false);
    let progress = |n: u64| {
        bar.inc(n);
        if !quiet && !shown.load(Ordering::Relaxed) && start.elapsed() > Duration::from_secs(1) {
            shown.store(true, Ordering::Relaxed);
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    };
    let r = engine::run(s, options, &progress);
    bar.finish_and_clear();
    r
}

/// Writes every output of the contract into `out`, atomically.
///
/// # Errors
/// A write or chart error naming the file; `out` is then left as it was.
pub fn write_outputs(results: &RunResults, out: &Path) -> Result<Vec<PathBuf>> {
    let final_paths = crate::export::write_folder(out, |dir| {
        let mut files = crate::export::write_data_files(results, dir)?;
        let charts = crate::charts::write_all(results, dir)?;
        let report = crate::report::markdown(results, &charts);
        let report_path = dir.join("report.md");
        std::fs::write(&report_path, report).map_err(|e| Error::write(&report_path, e))?;
        files.extend(charts);
        files.push(report_path);
        Ok(files
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_owned()))
            .collect::<Vec<_>>())
    })?;
    Ok(final_paths.into_iter().map(|n| out.join(n)).collect())
}

fn print_verdicts(r: &RunResults, out: &Path) {
    for v in &r.verdicts {
        println!(
            "{:<5} {:<15} {:<20} {}",
            v.status.as_str(),
            v.check,
            v.table,
            v.detail
        );
    }
    if let Some(rec) = &r.recommendation {
        println!("recommendation: {} — {}", rec.variant, rec.reason);
    }
    println!("report: {}", out.join("report.md").display());
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}

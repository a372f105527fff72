//! The command line: the only module that imports clap. `run` reads as the
//! pipeline: `Scenario::from_path → store::Model::for_scenario → engine::run →
//! verdicts::judge → export / charts / report`.

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
  keyheat run scenarios/sensor-daily-buckets.toml --fail-on-breach --max-utilization 0.9 --min-days 90
  keyheat check scenarios/chat-by-channel.toml                    # validate only
  keyheat compare scenarios/orders-by-date.toml scenarios/orders-by-date-sharded-random.toml
  keyheat place --store redis-cluster --nodes 6 'user:{42}:cart' cart:9
  keyheat schema > keyheat.schema.json                            # for editors

Exit codes: 0 run completed; 2 bad input; 3 predicted breach with --fail-on-breach (a failing check,
or p95 peak utilization over --max-utilization, or a breach before --min-days; for check, a failing
static store limit such as Bigtable's 4 KiB row key); 130/143 interrupted (SIGINT/SIGTERM: the output
folder is left as it was); 1 anything else.";

/// keyheat: predict hot partitions, throttling and size-ceiling breaches of a
/// NoSQL key design before the table exists.
#[derive(Debug, Parser)]
#[command(name = "keyheat", version, about, after_help = EXAMPLES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Flags shared by `run` and `compare`.
#[derive(Debug, Clone, clap::Args)]
pub struct RunFlags {
    /// Trials instead of the scenario's `simulation.trials` (at least 2, so
    /// that confidence intervals mean something).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub trials: Option<u32>,
    /// Seed instead of the scenario's `simulation.seed` (a whole number, 0
    /// or more).
    #[arg(long, allow_negative_numbers = true, value_parser = seed_arg)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores). Results are identical for any value.
    #[arg(long, allow_negative_numbers = true, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// How request counts are drawn: `aggregated` (default: per partition and
    /// window, stationary stretches in closed form), `auto` (the cheaper of
    /// exact and aggregated by a cost model), `windows` (every window drawn) or
    /// `exact` (every request drawn from an alias table over every key).
    #[arg(long, value_enum, default_value_t = MethodArg::Aggregated)]
    pub method: MethodArg,
    /// Draw every partition's windows in full. By default a partition that
    /// provably cannot reach its limits or the trial's peak in any window
    /// (Bernstein's bound, ε = 10⁻⁹) adds its requested units without its
    /// windows being drawn; the trials' peaks and throttled units are the
    /// same either way, only cold partitions' peaks in partitions.csv differ.
    /// A partition whose requests all cost the same, at most 32 a window,
    /// bounded below its limits, takes its peak as the Poisson quantile a
    /// full draw takes, with this flag or without.
    #[arg(long)]
    pub every_partition: bool,
    /// Simulate every table of every variant. By default a variant takes
    /// the base design's trials of each table whose plan it leaves as it is
    /// (on the same checkpoint day): they are the trials it would draw,
    /// since each table draws from its own streams; the outputs are the
    /// same either way.
    #[arg(long)]
    pub every_table: bool,
    /// Exit with code 3 when any check of the base design fails, or a
    /// threshold below is crossed.
    #[arg(long)]
    pub fail_on_breach: bool,
    /// With --fail-on-breach: also exit 3 when any table's p95 peak
    /// utilization (worst checkpoint) exceeds X (default: only failing checks).
    #[arg(long, value_name = "X", requires = "fail_on_breach", allow_negative_numbers = true, value_parser = threshold_arg)]
    pub max_utilization: Option<f64>,
    /// With --fail-on-breach: also exit 3 when any size, item or rows
    /// breach happens before day D (mean first-breach day over trials).
    #[arg(long, value_name = "D", requires = "fail_on_breach", allow_negative_numbers = true, value_parser = threshold_arg)]
    pub min_days: Option<f64>,
    /// No progress bar or timing line on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// What goes to stdout: `text` (the verdicts, a table per design and
    /// table, the recommendation, and the paths written) or `json` (the
    /// run's summary.json, byte for byte, and nothing else: the paths go to
    /// stderr).
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// Most estimated work a run may take, in seconds on one core (default
    /// 60): keyheat estimates a run's work before it starts and refuses one
    /// over the budget (exit 2) with the figure that drives it.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = max_work_arg)]
    pub max_work: Option<f64>,
    /// Most estimated memory a run may take (default 4GiB), as a size such as
    /// "8GiB".
    #[arg(long, value_name = "SIZE", value_parser = max_memory_arg)]
    pub max_memory: Option<String>,
}

/// `--max-utilization`, `--min-days`: a number of 0 or more (clap's own
/// message for `-1` was a tip to write `-- -1`, which fails too).
fn threshold_arg(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(
            "a threshold is a number of 0 or more, e.g. --max-utilization 0.8 or --min-days 90"
                .to_string(),
        ),
    }
}

/// `--seed`: a whole number from 0 (clap's own message for `-1` was a tip
/// to write `-- -1`, which makes it a file name).
fn seed_arg(text: &str) -> std::result::Result<u64, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "a seed is a whole number from 0 to {}, e.g. --seed 7",
            u64::MAX
        )
    })
}

/// `--threads`: at least one worker thread, checked before the scenario is
/// read.
fn threads_arg(text: &str) -> std::result::Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("worker threads are a whole number from 1, e.g. --threads 2 (leave the flag out for all cores)".to_string()),
    }
}

/// `--max-work`: seconds of estimated work on one core, above 0.
fn max_work_arg(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(w) if w.is_finite() && w > 0.0 => Ok(w),
        _ => Err(
            "the work budget is a number of seconds on one core above 0, e.g. --max-work 120"
                .to_string(),
        ),
    }
}

/// `--max-memory`: a size above 0, kept as written (a refused run's fix
/// repeats it); a unit in the wrong case gets the scenario's hint (`8gb`:
/// did you mean `GB`?).
fn max_memory_arg(text: &str) -> std::result::Result<String, String> {
    match crate::scenario::units::parse_size(text) {
        Ok(b) if b > 0.0 && b.is_finite() => Ok(text.to_string()),
        Ok(_) => Err("the memory budget is a size above 0, e.g. --max-memory 8GiB".to_string()),
        Err(e) => Err(format!("{e}; e.g. --max-memory 8GiB")),
    }
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Verdicts, the comparison table and the recommendation.
    Text,
    /// `summary.json` only.
    Json,
}

impl RunFlags {
    /// The budget flags given (`--max-work`, `--max-memory`) as they were
    /// written: running the scenario again needs them when the run was over
    /// a default budget.
    fn budget_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        if let Some(w) = self.max_work {
            flags.push(format!("--max-work {w}"));
        }
        if let Some(m) = &self.max_memory {
            flags.push(format!("--max-memory {m}"));
        }
        flags
    }

    fn options(&self) -> Result<Options> {
        let mut budget = crate::engine::cost::Budget::default();
        if let Some(w) = self.max_work {
            if !(w.is_finite() && w > 0.0) {
                return Err(Error::usage(format!(
                    "--max-work must be a number of seconds above 0, found {w}; fix: e.g. --max-work 120"
                )));
            }
            budget.max_work_s = w;
        }
        if let Some(m) = &self.max_memory {
            budget.max_memory_bytes = crate::scenario::units::parse_size(m)
                .ok()
                .filter(|b| *b > 0.0)
                .ok_or_else(|| {
                    Error::usage(format!(
                        "--max-memory must be a size such as 8GiB, found `{m}`; fix: e.g. --max-memory 8GiB"
                    ))
                })?;
        }
        Ok(Options {
            trials: self.trials,
            seed: self.seed,
            method: self.method.into(),
            budget,
            every_partition: self.every_partition,
            every_table: self.every_table,
        })
    }

    fn gate(&self) -> BreachGate {
        BreachGate {
            enabled: self.fail_on_breach,
            max_utilization: self.max_utilization,
            min_days: self.min_days,
        }
    }
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
        /// Trials, seed, threads, method, thresholds.
        #[command(flatten)]
        flags: RunFlags,
    },
    /// Compare whole alternative designs: the first scenario is the base, the
    /// others its alternatives (each file's own variants too); writes one
    /// report with the comparison and the recommendation.
    Compare {
        /// Two or more scenario files.
        #[arg(required = true, num_args = 2..)]
        scenarios: Vec<PathBuf>,
        /// Output folder (default: output/compare-<first scenario name>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Trials, seed, threads, method, thresholds.
        #[command(flatten)]
        flags: RunFlags,
    },
    /// Validate a scenario file without simulating it; exits 3 when a
    /// static store limit fails (Bigtable: a row key that can exceed 4 KiB).
    Check {
        /// The scenario file.
        scenario: PathBuf,
        /// Estimate a run of this many trials instead of the scenario's
        /// `simulation.trials` (as `run --trials`).
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=100_000))]
        trials: Option<u32>,
    },
    /// Draft a scenario from a model you already have: a NoSQL Workbench
    /// data model, CQL CREATE TABLE / CREATE KEYSPACE statements, a
    /// CloudFormation template or Terraform configuration with DynamoDB
    /// tables, or MongoDB shardCollection calls. What the file cannot say
    /// (entity counts, popularity, rates) is a placeholder marked
    /// `# TODO placeholder:`; `keyheat check` lists them.
    #[command(after_help = IMPORT_EXAMPLES)]
    Import {
        /// What FILE is.
        #[arg(value_enum)]
        kind: ImportKind,
        /// The model file.
        file: PathBuf,
        /// Write the scenario to this file (and print its absolute path)
        /// instead of stdout.
        #[arg(long, short, value_name = "SCENARIO")]
        out: Option<PathBuf>,
    },
    /// Print the JSON Schema (draft 2020-12) of scenario files, for editors:
    /// `keyheat schema > keyheat.schema.json`.
    Schema,
    /// Replay access logs through a scenario's key schemes and store
    /// placement: the observed load per partition, node and window, written
    /// as `run` writes its outputs.
    #[command(after_help = REPLAY_EXAMPLES)]
    Replay {
        /// The scenario whose key design the logs are replayed through.
        scenario: PathBuf,
        /// Log files (CSV/TSV, JSON Lines, Redis MONITOR, MongoDB log or
        /// profiler, CloudTrail; gzip/zstd read directly; `-`: stdin).
        #[arg(required = true, value_name = "LOG")]
        logs: Vec<PathBuf>,
        /// Output folder (default: output/replay-<scenario name>/).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Read an entity of the key templates from this log field
        /// (default: the field named like it; a scenario whose keys name one
        /// entity also finds it in the log's key); repeatable.
        #[arg(long = "map", value_name = "ENTITY=FIELD")]
        map: Vec<String>,
        /// Also run the scenario with the popularity fitted to the log and set
        /// the prediction beside the observation in the report.
        #[arg(long)]
        predict: bool,
        /// Placements for a store whose hash is internal (default: the
        /// scenario's trials); a published hash is placed once.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        trials: Option<u32>,
        /// Seed of those placements (default: the scenario's).
        #[arg(long)]
        seed: Option<u64>,
        /// Log reading.
        #[command(flatten)]
        log: LogFlags,
    },
    /// Fit a runnable scenario to access logs and print it (TOML) on stdout:
    /// `keyheat fit access.log.gz > scenario.toml`.
    #[command(after_help = FIT_EXAMPLES)]
    Fit {
        /// Log files.
        #[arg(required = true, value_name = "LOG")]
        logs: Vec<PathBuf>,
        /// Also write the fit report (fit.md, rank-frequency and rate charts) into DIR.
        #[arg(long, value_name = "DIR")]
        report: Option<PathBuf>,
        /// Store kind written into the scenario (default generic).
        #[arg(long, value_name = "KIND", default_value = "generic")]
        store: String,
        /// Scenario name (default: fitted).
        #[arg(long, default_value = "fitted")]
        name: String,
        /// Log reading.
        #[command(flatten)]
        log: LogFlags,
    },
    /// Print where keys land: one line per key, the key then `name=value`
    /// words (`slot=… node=…`, `partition=…`).
    #[command(after_help = PLACE_EXAMPLES)]
    Place {
        /// Store kind, as `store.kind` in a scenario (`redis-cluster`, `dynamodb`, `generic`, …).
        #[arg(long, value_name = "KIND")]
        store: String,
        /// A store setting, written as in the scenario's `[store]` section
        /// (`--set masters=6`, `--set node_memory=25GB`); repeatable.
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
        /// Node count: sets the store's node-count setting (`masters` for redis-cluster).
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// Keys to place (put `--` before keys that start with `-`).
        #[arg(required = true, value_name = "KEY")]
        keys: Vec<String>,
    },
}

/// `keyheat import` kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ImportKind {
    /// NoSQL Workbench for DynamoDB data model (JSON export).
    Workbench,
    /// CQL schema: CREATE KEYSPACE and CREATE TABLE (Cassandra, ScyllaDB).
    Cql,
    /// CloudFormation template (JSON or YAML) with DynamoDB tables.
    Cloudformation,
    /// Terraform configuration with aws_dynamodb_table resources.
    Terraform,
    /// MongoDB sh.shardCollection(…) calls or shardCollection commands.
    Mongodb,
}

impl From<ImportKind> for crate::import::Kind {
    fn from(k: ImportKind) -> Self {
        use crate::import::Kind;
        match k {
            ImportKind::Workbench => Kind::Workbench,
            ImportKind::Cql => Kind::Cql,
            ImportKind::Cloudformation => Kind::CloudFormation,
            ImportKind::Terraform => Kind::Terraform,
            ImportKind::Mongodb => Kind::MongoDb,
        }
    }
}

const IMPORT_EXAMPLES: &str = "\
Examples:
  keyheat import workbench ChatSystemSchema.json > chat.toml
  keyheat import cql schema.cql --out traces.toml
  keyheat import cloudformation template.yaml > orders.toml
  keyheat import terraform main.tf > sessions.toml
  keyheat import mongodb init-sharding.js > events.toml
  keyheat check chat.toml            # lists the placeholders to replace

Exit codes: 0 ok; 2 the file is not what KIND reads (file:line:column, the fix).";

/// How `replay` and `fit` read logs.
#[derive(Debug, Clone, clap::Args)]
pub struct LogFlags {
    /// Log format (default: detected from each file's first line): csv, tsv,
    /// jsonl, redis-monitor, mongodb-log, mongodb-profile, cloudtrail. Gzip
    /// and zstd files are read directly; `-` reads standard input.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<String>,
    /// Column (CSV/TSV) or field (JSON, dotted path) of the request time
    /// (default: time, timestamp, ts, window_start, …).
    #[arg(long, value_name = "NAME")]
    pub time_column: Option<String>,
    /// Column or field holding the key (default: `key`).
    #[arg(long, value_name = "NAME")]
    pub key_column: Option<String>,
    /// Column or field of the operation (default: op, operation, command, …).
    #[arg(long, value_name = "NAME")]
    pub op_column: Option<String>,
    /// Column or field of the request's size in bytes (default: size, bytes, …).
    #[arg(long, value_name = "NAME")]
    pub size_column: Option<String>,
    /// Column of the request count: the log is an aggregated table (`key,
    /// window_start, op, count, bytes`; default: a column named count).
    #[arg(long, value_name = "NAME")]
    pub count_column: Option<String>,
    /// Unit of numeric times: s, ms, us, ns (default: guessed from the magnitude).
    #[arg(long, value_name = "UNIT")]
    pub time_unit: Option<String>,
    /// An operation word of the log and the operation it is (get, query,
    /// put, update, delete, append, read, write); repeatable: `--op-map 28=get`.
    #[arg(long = "op-map", value_name = "WORD=OP")]
    pub op_map: Vec<String>,
    /// How long after later records a record still counts in its window
    /// (default 60s); later ones are left out and counted.
    #[arg(long, value_name = "DURATION", default_value = "60s")]
    pub lateness: String,
    /// Stop at the first bad record (exit 2 with its file:line:column)
    /// instead of counting bad records and going on.
    #[arg(long)]
    pub strict: bool,
    /// Keys the exact distinct-key table holds; past it a Space-Saving
    /// heavy-hitter sketch keeps the hottest (default 1048576).
    #[arg(long, value_name = "N", default_value_t = crate::replay::DEFAULT_MAX_KEYS)]
    pub max_keys: usize,
    /// Worker threads (default: all cores). Results are identical for any value.
    #[arg(long, allow_negative_numbers = true, value_parser = threads_arg)]
    pub threads: Option<usize>,
    /// No progress bar or summary line on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--method` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MethodArg {
    /// Whichever of exact and aggregated is expected to cost less.
    Auto,
    /// Per partition and window; stationary stretches in closed form.
    Aggregated,
    /// Every window drawn.
    Windows,
    /// Every request drawn (the slow reference; keys must be enumerable).
    Exact,
}

impl From<MethodArg> for engine::plan::Method {
    fn from(m: MethodArg) -> Self {
        match m {
            MethodArg::Auto => engine::plan::Method::Auto,
            MethodArg::Aggregated => engine::plan::Method::Aggregated,
            MethodArg::Windows => engine::plan::Method::Windows,
            MethodArg::Exact => engine::plan::Method::Exact,
        }
    }
}

/// Parses the command line, runs it, and maps the outcome to an exit code
/// (0 ok, 1 other error, 2 bad input, 3 breach with `--fail-on-breach`).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    on_interrupt_remove_partial_output();
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(if e.is_bad_input() { 2 } else { 1 })
        }
    }
}

/// On SIGINT or SIGTERM, undoes an output folder being written (its
/// temporary folder is removed; an earlier output moved aside is put back)
/// and exits with 128 + the signal: 130 or 143. Without a handler (it could
/// not be installed) the signal ends the process as usual, and the next run
/// cleans up instead.
fn on_interrupt_remove_partial_output() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let name = if signal == SIGINT { "SIGINT" } else { "SIGTERM" };
                eprintln!(
                    "\ninterrupted ({name}): the output being written was removed; an earlier output in that folder is left as it was"
                );
                crate::export::remove_in_progress_and_exit(128 + signal);
            }
        });
    drop(spawned);
}

fn dispatch(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Place {
            store,
            set,
            nodes,
            keys,
        } => {
            use std::io::Write;
            let lines = place(&store, &set, nodes, &keys)?;
            let mut o = std::io::stdout().lock();
            // A closed stdout (`| head`) is not an error.
            for line in lines {
                if writeln!(o, "{line}").is_err() {
                    break;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Import { kind, file, out } => {
            let toml = crate::import::import(kind.into(), &file)?;
            match out {
                Some(path) => {
                    std::fs::write(&path, &toml).map_err(|e| Error::write(&path, e))?;
                    let n = crate::import::placeholders(&toml).len();
                    use std::io::Write;
                    let _ = writeln!(
                        std::io::stdout().lock(),
                        "wrote: {} ({n} placeholders marked TODO; `keyheat check` lists them)",
                        absolute(&path).display()
                    );
                }
                None => {
                    use std::io::Write;
                    let mut o = std::io::stdout().lock();
                    let _ = o.write_all(toml.as_bytes()).and_then(|()| o.flush());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay {
            scenario,
            logs,
            out,
            map,
            predict,
            trials,
            seed,
            log,
        } => replay_command(&scenario, &logs, out, &map, predict, (trials, seed), &log),
        Command::Fit {
            logs,
            report,
            store,
            name,
            log,
        } => fit_command(&logs, report.as_deref(), &store, &name, &log),
        Command::Schema => {
            use std::io::Write;
            // A closed stdout (`keyheat schema | head`) is not an error.
            let mut o = std::io::stdout().lock();
            let _ = o
                .write_all(crate::schema::to_json_text().as_bytes())
                .and_then(|()| o.flush());
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { scenario, trials } => check(&scenario, trials),
        Command::Compare {
            scenarios,
            out,
            flags,
        } => {
            let base = compared(&scenarios)?;
            let out =
                out.unwrap_or_else(|| Path::new("output").join(format!("compare-{}", base.name)));
            run_and_write(&base, &flags, &out)
        }
        Command::Run {
            scenario,
            out,
            flags,
        } => {
            let s = Scenario::from_path(&scenario)?;
            let out = out.unwrap_or_else(|| Path::new("output").join(&s.name));
            run_and_write(&s, &flags, &out)
        }
    }
}

/// `keyheat compare`'s designs as one scenario: the first file the base
/// design, each other file an alternative (a variant whose scenario is the
/// whole file), followed by its own variants named `<its name>: <variant>`.
fn compared(scenarios: &[PathBuf]) -> Result<Scenario> {
    // One file twice compares a design with itself, its variants
    // listed twice over (a new user's slip).
    let mut seen = Vec::with_capacity(scenarios.len());
    for path in scenarios {
        let same = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if seen.contains(&same) {
            return Err(crate::Error::usage(format!(
                "{} is given twice: compare takes each design once (the first is the base; each file's own [[variant]]s are compared too)",
                path.display()
            )));
        }
        seen.push(same);
    }
    let mut designs = Vec::with_capacity(scenarios.len());
    for path in scenarios {
        designs.push(Scenario::from_path(path)?);
    }
    // One currency for every monthly cost the comparison shows.
    let priced: Vec<(&PathBuf, &str)> = scenarios
        .iter()
        .zip(&designs)
        .filter_map(|(path, d)| d.pricing.as_ref().map(|p| (path, p.currency.as_str())))
        .collect();
    if let Some(&(other, currency)) = priced.iter().find(|p| p.1 != priced[0].1) {
        return Err(crate::Error::usage(format!(
            "{} is priced in {currency} and {} in {}: a comparison's monthly costs are in one currency; fix: give every [pricing] the same currency (convert its prices)",
            other.display(),
            priced[0].0.display(),
            priced[0].1
        )));
    }
    // The first file's own variants stay its variants; each other
    // file is an alternative, followed by its own variants named
    // `<its name>: <variant>`.
    let mut base = designs.remove(0);
    for (mut d, path) in designs.into_iter().zip(scenarios.iter().skip(1)) {
        let from = |mut set: Vec<(String, serde_json::Value)>| {
            let file = serde_json::Value::String(path.display().to_string());
            set.insert(0, ("scenario".to_string(), file));
            set
        };
        if let Some(w) = unrelated(&base, &d, path) {
            d.warnings.push(w);
        }
        let own = std::mem::take(&mut d.variants);
        // Named by its scenario name; where that is the base's or
        // an earlier design's (two drafts of one design), by its
        // file name, so the tables tell the files apart.
        let taken = |n: &str| n == base.name || base.variants.iter().any(|v| v.name == n);
        let name = if taken(&d.name) {
            let stem = path.file_stem().map_or_else(
                || path.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            let mut name = stem.clone();
            let mut k = 2;
            while taken(&name) {
                name = format!("{stem} ({k})");
                k += 1;
            }
            name
        } else {
            d.name.clone()
        };
        base.variants.push(crate::scenario::Variant {
            name: name.clone(),
            set: from(Vec::new()),
            scenario: Box::new(d),
            line: 0,
        });
        base.variants
            .extend(own.into_iter().map(|v| crate::scenario::Variant {
                name: format!("{name}: {}", v.name),
                set: from(v.set),
                scenario: v.scenario,
                line: 0,
            }));
    }
    Ok(base)
}

/// A warning for an alternative `d` (the file at `path`) that shares no
/// table with the `base` design: compare ranks alternatives of one design
/// by how small a change they are, which means little between unrelated
/// designs (a new user's Cassandra ticketing design was recommended a
/// DynamoDB orders table as "the smallest change that passes").
fn unrelated(base: &Scenario, d: &Scenario, path: &Path) -> Option<crate::scenario::Warning> {
    let names = |s: &Scenario| s.tables.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    let (ours, theirs) = (names(base), names(d));
    if theirs.iter().any(|t| ours.contains(t)) {
        return None;
    }
    let (line, column) = d.store.positions.get("kind").map_or((1, 1), |p| p.value);
    let store = if d.store.kind == base.store.kind {
        String::new()
    } else {
        format!(
            ", and targets {} where the base design targets {}",
            d.store.kind.as_str(),
            base.store.kind.as_str()
        )
    };
    Some(crate::scenario::Warning {
        path: path.display().to_string(),
        line,
        column,
        key: "table".into(),
        message: format!(
            "`{}` shares no table with the base design `{}` (its tables: {}; the base's: {}){store}: compare ranks alternatives of one design by how small a change they are, so its recommendation means little between unrelated designs",
            d.name,
            base.name,
            theirs.join(", "),
            ours.join(", ")
        ),
        fix: "compare alternatives of the same tables (by the same names), or run each design on its own with keyheat run".into(),
    })
}

/// `keyheat check`: validates, prints failing static checks (exit 3) or
/// `ok`, then the placeholders an import left (a warning; exit 0). A closed
/// stdout (`| head`) is not an error.
fn check(scenario: &Path, trials: Option<u32>) -> Result<ExitCode> {
    use std::io::Write;
    let s = Scenario::from_path(scenario)?;
    let model = crate::store::Model::for_scenario(&s)?;
    print_warnings(&crate::engine::scenario_warnings(&s));
    let mut o = std::io::stdout().lock();
    // Static store limits a template can break whatever the traffic
    // (Bigtable's 4 KiB row key): a failing verdict, exit code 3.
    let failing: Vec<crate::results::Verdict> = crate::verdicts::static_verdicts(&s, model.store())
        .into_iter()
        .filter(|v| v.status == Status::Fail)
        .collect();
    for v in &failing {
        let _ = writeln!(
            o,
            "{}: fail {} (table `{}`): {}",
            scenario.display(),
            v.check,
            v.table,
            v.detail
        );
    }
    if !failing.is_empty() {
        return Ok(ExitCode::from(3));
    }
    let options = Options {
        trials,
        ..Options::default()
    };
    let cost = crate::engine::cost::estimate(&s, &options)?;
    let _ = writeln!(
        o,
        "{}: ok ({}, {}, {}); a run is estimated at {} s of work on one core and {} of memory (run's budgets {} s, {}: keyheat run --max-work, --max-memory)",
        scenario.display(),
        crate::format::plural(s.tables.len(), "table", "tables"),
        // As written: the derived "<name> (copies)" patterns are not counted.
        crate::format::plural(
            s.access_patterns.iter().filter(|p| p.copy_of.is_none()).count(),
            "access pattern",
            "access patterns"
        ),
        crate::format::plural(s.variants.len(), "variant", "variants"),
        crate::format::sig3(cost.work_s),
        // An estimate in decimal units whatever its value (an estimate of
        // exactly 69 MiB read "69 MiB" beside another's "72.3 MB").
        crate::format::bytes_short(cost.memory_bytes),
        crate::format::sig3(crate::engine::cost::DEFAULT_MAX_WORK_S),
        crate::format::bytes(crate::engine::cost::DEFAULT_MAX_MEMORY_BYTES),
    );
    // Over a default budget, `run` refuses the design unless given more:
    // said here, where the design is otherwise ok (a warning, exit 0).
    if let Err(e) = crate::engine::cost::check(&cost, &crate::engine::cost::Budget::default(), "") {
        let _ = writeln!(o, "warning: `keyheat run` refuses it as it is: {e}");
    }
    // Placeholders an import left (`# TODO …`): a warning, exit 0.
    let todo = crate::import::placeholders(&s.source_text);
    if !todo.is_empty() {
        let _ = writeln!(
            o,
            "warning: {} placeholder{} to replace (marked TODO):",
            todo.len(),
            if todo.len() == 1 { "" } else { "s" }
        );
        for p in &todo {
            let _ = writeln!(
                o,
                "  {}:{}: {} = {} — {}",
                scenario.display(),
                p.line,
                p.key,
                p.value,
                p.note
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Simulates, writes every output into `out`, prints the verdicts, and maps
/// a failing check to exit code 3 under `--fail-on-breach`.
fn run_and_write(s: &Scenario, flags: &RunFlags, out: &Path) -> Result<ExitCode> {
    let gate = flags.gate();
    gate.validate()?;
    // A folder the writing would refuse is refused before the work.
    crate::export::check_folder(out, &is_output_file)?;
    let started = Instant::now();
    let options = flags.options()?;
    let mut results = match with_threads(flags.threads, || simulate(s, &options, flags.quiet)) {
        Ok(results) => results,
        Err(e) => {
            // A refusal (the work budget) often comes of what a warning
            // names (a duration without a unit): both are shown.
            print_warnings(&crate::engine::scenario_warnings(s));
            return Err(e);
        }
    };
    print_warnings(&results.warnings);
    results.rerun_flags = flags.budget_flags();
    let files = write_outputs(&results, out)?;
    let out = absolute(out);
    if !flags.quiet {
        eprintln!(
            "keyheat: {} trials in {:.2} s; wrote {} files to {}",
            results.trials,
            started.elapsed().as_secs_f64(),
            files.len(),
            out.display()
        );
    }
    match flags.format {
        FormatArg::Text => print_verdicts(&results, &out, files.len()),
        FormatArg::Json => print_summary(&results)?,
    }
    Ok(if gate.enabled && gate.breached(&results) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// What `--fail-on-breach` turns into exit code 3.
#[derive(Debug, Clone, Copy, Default)]
pub struct BreachGate {
    /// `--fail-on-breach` given.
    pub enabled: bool,
    /// `--max-utilization`: highest p95 peak utilization allowed.
    pub max_utilization: Option<f64>,
    /// `--min-days`: earliest mean first-breach day allowed.
    pub min_days: Option<f64>,
}

impl BreachGate {
    /// Rejects thresholds that are not finite numbers ≥ 0.
    ///
    /// # Errors
    /// A usage error (exit 2) naming the flag.
    pub fn validate(&self) -> Result<()> {
        for (flag, value) in [
            ("--max-utilization", self.max_utilization),
            ("--min-days", self.min_days),
        ] {
            if let Some(x) = value {
                if !(x.is_finite() && x >= 0.0) {
                    return Err(Error::usage(format!(
                        "{flag} must be a number of 0 or more, found {x}"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Whether the base design of `r` breaches: any verdict is `fail`; or,
    /// with `max_utilization`, any table's p95 peak utilization (the worst
    /// over its checkpoints, and its busiest node's where the store limits
    /// nodes: [`crate::results::TableResults::busiest_server_p95`]) exceeds it; or, with `min_days`, any table's
    /// item-collection, item or rows breach has a mean first day before it.
    ///
    /// ```
    /// use keyheat::cli::BreachGate;
    /// let gate = BreachGate { enabled: true, max_utilization: Some(0.9), min_days: None };
    /// assert!(gate.validate().is_ok());
    /// ```
    pub fn breached(&self, r: &RunResults) -> bool {
        let failed = r.verdicts.iter().any(|v| v.status == Status::Fail);
        let too_hot = self.max_utilization.is_some_and(|x| {
            r.tables.iter().any(|t| {
                t.checkpoints
                    .iter()
                    .map(|c| c.peak_utilization.p95)
                    .fold(t.busiest_server_p95(), f64::max)
                    > x
            })
        });
        let too_soon = self.min_days.is_some_and(|d| {
            r.tables.iter().any(|t| {
                t.breaches_with_nodes()
                    .iter()
                    .any(|(_, b)| b.mean_day.is_some_and(|day| day < d))
            })
        });
        failed || too_hot || too_soon
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

/// Seconds between the plain progress lines of a run whose stderr is not a
/// terminal (a pipe, a CI log), unless `KEYHEAT_PROGRESS_EVERY_S` sets it.
const PLAIN_PROGRESS_EVERY_S: f64 = 10.0;

/// Runs the engine with a progress bar on stderr, shown only for runs over a
/// second and only when stderr is a terminal; otherwise (a pipe, a CI log) a
/// plain line every [`PLAIN_PROGRESS_EVERY_S`] seconds, so a long run is
/// not taken for a hang. Nothing with `quiet`.
fn simulate(s: &Scenario, options: &Options, quiet: bool) -> Result<RunResults> {
    use std::io::IsTerminal;
    let total = engine::total_trials(s, options);
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} [{bar:40}] {pos}/{len} trial runs · {msg} ({eta} left)",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(s.name.clone());
    let start = Instant::now();
    let shown = AtomicBool::new(false);
    let every = std::env::var("KEYHEAT_PROGRESS_EVERY_S")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0)
        .unwrap_or(PLAIN_PROGRESS_EVERY_S);
    let plain = (!quiet && !std::io::stderr().is_terminal()).then(|| std::sync::Mutex::new(start));
    let progress = |p: engine::Progress<'_>| {
        match p {
            engine::Progress::BusyPeriod {
                design,
                day,
                trials,
            } => {
                bar.set_message(format!(
                    "{design}, day {}: {trials} trials",
                    crate::format::day(day)
                ));
                // Checkpoints the engine adds (a breach day, the horizon's
                // layout) are not known up front: the bar grows by a whole
                // busy period when one starts.
                let need = bar.position() + u64::from(trials);
                if bar.length().is_some_and(|len| need > len) {
                    bar.set_length(need);
                }
            }
            engine::Progress::Trial => bar.inc(1),
        }
        if !quiet && !shown.load(Ordering::Relaxed) && start.elapsed() > Duration::from_secs(1) {
            shown.store(true, Ordering::Relaxed);
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        if let Some(Ok(mut last)) = plain.as_ref().map(std::sync::Mutex::try_lock) {
            if last.elapsed().as_secs_f64() >= every {
                *last = Instant::now();
                eprintln!(
                    "keyheat: {}: {}/{} trial runs · {} ({:.1} s so far)",
                    s.name,
                    bar.position(),
                    bar.length().unwrap_or(0),
                    bar.message(),
                    start.elapsed().as_secs_f64()
                );
            }
        }
    };
    let r = engine::run(s, options, &progress).and_then(|mut r| {
        crate::verdicts::judge(s, &mut r)?;
        Ok(r)
    });
    bar.finish_and_clear();
    r
}

/// Writes every output of the contract into `out`, atomically.
///
/// # Errors
/// A write or chart error naming the file; `out` is then left as it was.
pub fn write_outputs(results: &RunResults, out: &Path) -> Result<Vec<PathBuf>> {
    let final_paths = crate::export::write_folder(out, &is_output_file, |dir| {
        // The data files (the timeseries can be tens of MB) and the charts
        // with the reports are independent: written side by side.
        let (data, charts) = rayon::join(
            || crate::export::write_data_files(results, dir),
            || -> Result<Vec<PathBuf>> {
                let mut charts = crate::charts::write_all(results, dir)?;
                let report = crate::report::markdown(results, &charts);
                let report_path = dir.join("report.md");
                std::fs::write(&report_path, report).map_err(|e| Error::write(&report_path, e))?;
                let html = crate::report::html(results, &chart_svgs(&charts)?);
                let html_path = dir.join("report.html");
                std::fs::write(&html_path, html).map_err(|e| Error::write(&html_path, e))?;
                charts.push(report_path);
                charts.push(html_path);
                Ok(charts)
            },
        );
        let mut files = data?;
        files.extend(charts?);
        Ok(files
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_owned()))
            .collect::<Vec<_>>())
    })?;
    Ok(final_paths.into_iter().map(|n| out.join(n)).collect())
}

/// Whether keyheat writes a file named `name` into an output folder: a data
/// file, `report.md` / `report.html`, or a chart (`<kind>-<table>` or
/// `variants`, `.png` or `.svg`).
fn is_output_file(name: &str) -> bool {
    if crate::export::DATA_FILES.contains(&name) || name == "report.md" || name == "report.html" {
        return true;
    }
    let Some(stem) = name
        .strip_suffix(".png")
        .or_else(|| name.strip_suffix(".svg"))
    else {
        return false;
    };
    stem == crate::charts::VARIANTS_STEM
        || crate::charts::TABLE_CHART_KINDS.iter().any(|kind| {
            stem.strip_prefix(kind)
                .is_some_and(|t| t.starts_with('-') && t.len() > 1)
        })
}

/// `(file stem, SVG text)` of every `.svg` among the chart files, in order.
fn chart_svgs(charts: &[PathBuf]) -> Result<Vec<(String, String)>> {
    charts
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "svg"))
        .map(|p| {
            let stem = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = std::fs::read_to_string(p).map_err(|e| {
                Error::write(p, format!("cannot read it back for report.html: {e}"))
            })?;
            Ok((stem, text))
        })
        .collect()
}

/// Prints the scenario's warnings on stderr, one `file:line:column: warning:`
/// line and its fix each (also under `--quiet`: they are about the input).
fn print_warnings(warnings: &[crate::scenario::Warning]) {
    for w in warnings {
        eprintln!("{w}");
    }
}

/// `path` made absolute against the current folder (unchanged when that
/// cannot be read).
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Prints the verdicts, the table of designs ([`crate::report::terminal_table`]),
/// the recommendation and the absolute paths written on stdout; a closed
/// stdout (`| head`) is not an error.
fn print_verdicts(r: &RunResults, out: &Path, files: usize) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    // Columns as wide as their longest entry, so every detail lines up.
    let check_w = r
        .verdicts
        .iter()
        .map(|v| v.check.chars().count())
        .max()
        .unwrap_or(0);
    let table_w = r
        .verdicts
        .iter()
        .map(|v| v.table.chars().count())
        .max()
        .unwrap_or(0);
    for v in &r.verdicts {
        let _ = writeln!(
            o,
            "{:<5} {:<check_w$} {:<table_w$} {}",
            v.status.as_str(),
            v.check,
            v.table,
            v.detail
        );
    }
    // The static checklist's items that do not pass, named (their reasons
    // are the report's): a design passing every simulated check may not.
    let flagged = crate::results::checklist_flagged(&r.checklist);
    if !flagged.is_empty() {
        let _ = writeln!(
            o,
            "checklist: {} of {} items flagged (design review, reasons in report.md): {}",
            flagged.len(),
            r.checklist.len(),
            flagged.join(", ")
        );
    }
    let _ = writeln!(o);
    for line in crate::report::terminal_table(r) {
        let _ = writeln!(o, "{line}");
    }
    let _ = writeln!(o);
    if let Some(rec) = &r.recommendation {
        let _ = writeln!(o, "recommendation: {} — {}", rec.variant, rec.reason);
    }
    let _ = writeln!(o, "wrote: {} ({files} files)", out.display());
    let _ = writeln!(o, "report: {}", out.join("report.md").display());
}

/// Prints `summary.json` on stdout, the same bytes as the file.
fn print_summary(r: &RunResults) -> Result<()> {
    use std::io::Write;
    let bytes = crate::export::summary_json(r)?;
    let mut o = std::io::stdout().lock();
    // A closed stdout (`| head`) is not an error.
    let _ = o.write_all(&bytes).and_then(|()| o.flush());
    Ok(())
}

const REPLAY_EXAMPLES: &str = "\
Examples:
  keyheat replay scenarios/orders-by-customer.toml access.csv.gz --map customer=user_id
  keyheat replay design.toml monitor.log --predict --out output/replay
  keyheat replay design.toml trace.csv --key-column lbn --op-map 28=get --op-map 2a=put
  keyheat replay design.toml daily.csv      # an aggregated table: key, window_start, op, count, bytes

Exit codes: 0 replayed; 2 bad input (a bad record with --strict, a missing column, an unknown
--map entity); 1 anything else.";

const FIT_EXAMPLES: &str = "\
Examples:
  keyheat fit access.jsonl.zst > scenario.toml
  keyheat fit trace.csv --key-column lbn --op-map 28=get --op-map 2a=put --report output/fit
  keyheat fit monitor.log --store redis-cluster > redis.toml";

/// The log flags as reading options.
fn log_options(f: &LogFlags) -> Result<crate::logs::LogOptions> {
    let format = match f.format.as_deref() {
        None | Some("auto") => None,
        Some(x) => Some(crate::logs::Format::parse(x).ok_or_else(|| {
            Error::usage(format!("--format {x}: unknown format; fix: one of csv, tsv, jsonl, redis-monitor, mongodb-log, mongodb-profile, cloudtrail"))
        })?),
    };
    let time_unit = match f.time_unit.as_deref() {
        None => None,
        Some(u) => Some(crate::logs::time::TimeUnit::parse(u).ok_or_else(|| {
            Error::usage(format!(
                "--time-unit {u}: unknown unit; fix: s, ms, us or ns"
            ))
        })?),
    };
    let mut op_map = Vec::new();
    for m in &f.op_map {
        let (word, op) = m
            .split_once('=')
            .and_then(|(w, o)| Some((w, crate::logs::Op::from_word(o)?)))
            .ok_or_else(|| Error::usage(format!("--op-map {m}: write WORD=OP with OP one of get, query, put, update, delete, append, read, write")))?;
        op_map.push((word.to_string(), op));
    }
    let lateness_s = crate::scenario::units::parse_duration(&f.lateness).map_err(|e| {
        Error::usage(format!(
            "--lateness {}: {e}; fix: a duration such as 60s or 5m",
            f.lateness
        ))
    })?;
    Ok(crate::logs::LogOptions {
        format,
        time_column: f.time_column.clone(),
        key_column: f.key_column.clone(),
        op_column: f.op_column.clone(),
        size_column: f.size_column.clone(),
        count_column: f.count_column.clone(),
        time_unit,
        op_map,
        window_s: 1.0,
        lateness_s,
        strict: f.strict,
    })
}

/// A progress bar over the logs' bytes with requests per second, shown on
/// a terminal for reads longer than a second.
fn log_progress(paths: &[PathBuf], quiet: bool) -> (ProgressBar, Instant) {
    let total: u64 = paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = ProgressBar::with_draw_target(Some(total.max(1)), ProgressDrawTarget::hidden());
    if let Ok(style) =
        ProgressStyle::with_template("[{bar:40}] {bytes}/{total_bytes} · {msg} ({eta} left)")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let _ = quiet;
    (bar, Instant::now())
}

/// `keyheat replay`.
fn replay_command(
    scenario: &Path,
    logs: &[PathBuf],
    out: Option<PathBuf>,
    map: &[String],
    predict: bool,
    (trials, seed): (Option<u32>, Option<u64>),
    log: &LogFlags,
) -> Result<ExitCode> {
    let s = Scenario::from_path(scenario)?;
    let mut pairs = Vec::new();
    for m in map {
        let (e, f) = m
            .split_once('=')
            .filter(|(e, f)| !e.is_empty() && !f.is_empty())
            .ok_or_else(|| {
                Error::usage(format!(
                    "--map {m}: write ENTITY=FIELD, e.g. --map customer=user_id"
                ))
            })?;
        pairs.push((e.to_string(), f.to_string()));
    }
    let opts = crate::replay::ReplayOptions {
        logs: log_options(log)?,
        map: pairs,
        trials,
        seed,
        max_keys: log.max_keys,
        predict,
    };
    let out = out.unwrap_or_else(|| Path::new("output").join(format!("replay-{}", s.name)));
    crate::export::check_folder(&out, &is_output_file)?;
    let (bar, started) = log_progress(logs, log.quiet);
    let shown = AtomicBool::new(false);
    let progress = |requests: u64, bytes: u64| {
        bar.set_position(bytes);
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{requests} requests, {:.0} requests/s",
            requests as f64 / secs
        ));
        if !log.quiet
            && !shown.load(Ordering::Relaxed)
            && started.elapsed() > Duration::from_secs(1)
        {
            shown.store(true, Ordering::Relaxed);
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    };
    let results = with_threads(log.threads, || {
        crate::replay::replay(&s, logs, &opts, &progress)
    });
    bar.finish_and_clear();
    let results = results?;
    let files = write_outputs(&results, &out)?;
    if let (false, Some(info)) = (log.quiet, results.replay.as_ref()) {
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "keyheat: replayed {} requests ({} records; {} bad, {} skipped, {} late, {} unrouted) over {} windows in {:.2} s ({:.0} requests/s); wrote {} files to {}",
            info.requests, info.records, info.bad_records, info.skipped, info.late_requests, info.unrouted_requests,
            info.windows, secs, info.requests as f64 / secs.max(1e-9), files.len(), out.display()
        );
        for b in &info.bad {
            eprintln!("  bad record: {b}");
        }
        eprintln!("keyheat: {}", info.keys.statement);
    }
    print_verdicts(&results, &absolute(&out), files.len());
    Ok(ExitCode::SUCCESS)
}

/// `keyheat fit`.
fn fit_command(
    logs: &[PathBuf],
    report: Option<&Path>,
    store: &str,
    name: &str,
    log: &LogFlags,
) -> Result<ExitCode> {
    let opts = log_options(log)?;
    let (bar, started) = log_progress(logs, log.quiet);
    let progress = |requests: u64, bytes: u64| {
        bar.set_position(bytes);
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{requests} requests, {:.0} requests/s",
            requests as f64 / secs
        ));
        if !log.quiet && started.elapsed() > Duration::from_secs(1) && bar.is_hidden() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    };
    let fit = with_threads(log.threads, || {
        crate::fit::fit(logs, &opts, log.max_keys, &progress)
    });
    bar.finish_and_clear();
    let fit = fit?;
    let text = crate::fit::to_toml(&fit, store, name);
    // The fitted scenario must be runnable: parse it as `run` would.
    Scenario::from_str_at(&text, "fitted scenario").map_err(|e| match e.kind() {
        crate::ErrorKind::Scenario { key, message, .. } if key.starts_with("store") => {
            Error::usage(format!("--store {store}: {message}"))
        }
        _ => e,
    })?;
    if let Some(dir) = report {
        std::fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
        crate::charts::write_fit(&fit, dir)?;
        let md = crate::fit::report_markdown(&fit, &text);
        let path = dir.join("fit.md");
        std::fs::write(&path, md).map_err(|e| Error::write(&path, e))?;
    }
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(text.as_bytes());
    if !log.quiet {
        eprintln!(
            "keyheat: fitted {} requests over {:.0} s: {}",
            fit.requests, fit.span_s, fit.popularity.note
        );
    }
    Ok(ExitCode::SUCCESS)
}

const PLACE_EXAMPLES: &str = "\
Examples:
  keyheat place --store redis-cluster --nodes 6 'user:{42}:session' cart:9
  keyheat place --store redis-cluster --set masters=6 --set replicas_per_master=1 foo bar
  keyheat place --store dynamodb --set partitions=8 'CUSTOMER#42'

Settings take the units of the scenario file (sizes \"25GB\", rates \"3M/day\").
Exit codes: 0 ok; 2 bad input (unknown store or setting, bad value).";

/// `keyheat place`: one line per key, the key then the store's placement
/// words. `settings` are `name=value` strings converted with the scenario
/// file's units; `nodes` sets the store's node-count setting.
///
/// # Errors
/// A usage error (exit 2) for an unknown store kind or setting (with a "did
/// you mean"), a value that does not parse, `--nodes` on a store without a
/// node-count setting, or a setting the store model rejects.
fn place(
    kind: &str,
    settings: &[String],
    nodes: Option<u64>,
    keys: &[String],
) -> Result<Vec<String>> {
    let config = crate::store::settings::from_command_line(kind, settings, nodes)?;
    let model = crate::store::Model::new(&config, "keyheat place").map_err(|e| match e.kind() {
        crate::error::ErrorKind::Scenario {
            key, message, fix, ..
        } => {
            let option = match key.strip_prefix("store.") {
                Some("kind") | None => "--store".to_string(),
                Some(name) => format!("--set {name}"),
            };
            Error::usage(format!("{option}: {message}; {fix}"))
        }
        _ => e,
    })?;
    let demand = crate::store::TableDemand {
        name: "keys".to_string(),
        initial_bytes: 0.0,
        has_local_index: false,
    };
    Ok(keys
        .iter()
        .map(|key| {
            let shown =
                if key.is_empty() || key.chars().any(|c| c.is_whitespace() || c.is_control()) {
                    format!("{key:?}")
                } else {
                    key.clone()
                };
            format!("{shown} {}", model.store().describe_placement(key, &demand))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn breach_gate_thresholds() {
        let mut r = crate::charts::fixture::results();
        let gate = |max_utilization, min_days| BreachGate {
            enabled: true,
            max_utilization,
            min_days,
        };
        // The fixture fails hot_partition on "orders": a breach whatever the thresholds.
        assert!(gate(None, None).breached(&r));
        r.verdicts.retain(|v| v.status != Status::Fail);
        assert!(!gate(None, None).breached(&r));
        // "orders": p95 peak utilization 1.50, checkpoints up to 1.35.
        assert!(gate(Some(1.4), None).breached(&r));
        assert!(!gate(Some(1.5), None).breached(&r));
        r.tables[0].checkpoints[2].peak_utilization.p95 = 1.6;
        assert!(
            gate(Some(1.59), None).breached(&r),
            "worst checkpoint counts"
        );
        // "orders" first breaches its item-collection ceiling on day 123.4 (mean).
        assert!(!gate(None, Some(123.0)).breached(&r));
        assert!(gate(None, Some(124.0)).breached(&r));
        r.tables[1].rows_breach.mean_day = Some(10.0);
        assert!(gate(None, Some(11.0)).breached(&r));
        assert!(gate(Some(f64::NAN), None).validate().is_err());
        assert!(gate(None, Some(-1.0)).validate().is_err());
        assert!(gate(Some(0.9), Some(30.0)).validate().is_ok());
    }
}

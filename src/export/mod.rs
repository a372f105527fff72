//! The output contract's data files: `summary.json` and the CSV tables.
//! Each exporter renders [`RunResults`] to bytes, so outputs are snapshot
//! tested and the writing of the folder lives in one place ([`write_folder`]).

pub mod csv_tables;
pub mod summary;

pub use csv_tables::{
    growth_csv, keys_csv, nodes_csv, partitions_csv, patterns_csv, timeseries_csv,
    timeseries_pieces, variants_csv,
};
pub use summary::{summary_json, Summary};

use crate::error::{Error, Result};
use crate::results::RunResults;
use std::path::{Path, PathBuf};

/// A file's bytes as consecutive pieces.
pub type Pieces = Vec<Vec<u8>>;

/// One output file: its name and how to render it.
pub struct Exporter {
    /// File name inside the output folder.
    pub file_name: &'static str,
    /// Renders the file.
    pub render: fn(&RunResults) -> Result<Vec<u8>>,
    /// Renders the same bytes as consecutive pieces, for a file too large
    /// to join in memory first (written piece by piece).
    pub pieces: Option<fn(&RunResults) -> Result<Pieces>>,
}

/// The data files of the output contract, in writing order.
pub fn exporters(results: &RunResults) -> Vec<Exporter> {
    let mut v = vec![
        Exporter {
            file_name: "summary.json",
            render: summary_json,
            pieces: None,
        },
        Exporter {
            file_name: "partitions.csv",
            render: partitions_csv,
            pieces: None,
        },
        Exporter {
            file_name: "keys.csv",
            render: keys_csv,
            pieces: None,
        },
        Exporter {
            file_name: "timeseries.csv",
            render: timeseries_csv,
            pieces: Some(timeseries_pieces),
        },
        Exporter {
            file_name: "growth.csv",
            render: growth_csv,
            pieces: None,
        },
        Exporter {
            file_name: "patterns.csv",
            render: patterns_csv,
            pieces: None,
        },
    ];
    if results.tables.iter().any(|t| t.nodes.is_some()) {
        v.push(Exporter {
            file_name: "nodes.csv",
            render: nodes_csv,
            pieces: None,
        });
    }
    if !results.variants.is_empty() {
        v.push(Exporter {
            file_name: "variants.csv",
            render: variants_csv,
            pieces: None,
        });
    }
    v
}

/// Writes every data file of `results` into `dir` (which must exist).
///
/// # Errors
/// [`crate::ErrorKind::Write`] naming the file that could not be written.
pub fn write_data_files(results: &RunResults, dir: &Path) -> Result<Vec<PathBuf>> {
    exporters(results)
        .into_iter()
        .map(|e| {
            let path = dir.join(e.file_name);
            let pieces = match e.pieces {
                Some(pieces) => pieces(results)?,
                None => vec![(e.render)(results)?],
            };
            let write = || -> std::io::Result<()> {
                use std::io::Write;
                let mut file = std::fs::File::create(&path)?;
                for piece in &pieces {
                    file.write_all(piece)?;
                }
                file.flush()
            };
            write().map_err(|err| Error::write(&path, err))?;
            Ok(path)
        })
        .collect()
}

/// Data files [`exporters`] may write, by name.
pub const DATA_FILES: [&str; 8] = [
    "summary.json",
    "partitions.csv",
    "keys.csv",
    "timeseries.csv",
    "growth.csv",
    "patterns.csv",
    "nodes.csv",
    "variants.csv",
];

/// Whether [`write_folder`] may write `out`, checked before any work is
/// done (a run of minutes should not end refused): the same refusals,
/// touching nothing.
///
/// # Errors
/// A usage error (exit code 2) when `out` names `.` or `..`, or is a folder
/// keyheat may not replace (`owns` tells its own files).
pub fn check_folder(out: &Path, owns: &dyn Fn(&str) -> bool) -> Result<()> {
    let (parent, _) = folder_parts(out)?;
    // Missing folders on the way are created; one that is a file is not.
    if let Some(file) = parent
        .ancestors()
        .find(|a| std::fs::metadata(a).is_ok_and(|m| !m.is_dir()))
    {
        return Err(Error::usage(format!(
            "--out '{}' cannot be created: '{}' is a file, not a folder, and deleted nothing\n  fix: choose a folder path (e.g. --out output/my-run)",
            out.display(),
            file.display()
        )));
    }
    if let Some(why) = not_replaceable(out, owns) {
        return Err(Error::usage(format!(
            "--out '{}' exists and is not a keyheat output folder: {why}; keyheat replaces only an empty folder or its own output, and deleted nothing\n  fix: choose a new folder (e.g. --out output/my-run), or move your files out of this one",
            out.display()
        )));
    }
    Ok(())
}

/// `out`'s parent folder (`.` when none is written) and its own name; a
/// usage error when it names `.` or `..`.
fn folder_parts(out: &Path) -> Result<(PathBuf, String)> {
    let Some(name) = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n != "." && n != "..")
    else {
        return Err(Error::usage(format!(
            "--out '{}' must name a folder keyheat can create or replace, not the current or parent folder\n  fix: pass e.g. --out output/my-run",
            out.display()
        )));
    };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name))
}

/// A write in progress, for [`remove_in_progress_and_exit`]: the temporary folder
/// being filled, and an earlier output moved aside (`(moved to, from)`)
/// while the new one is renamed into place.
struct InProgress {
    tmp: Option<PathBuf>,
    moved: Option<(PathBuf, PathBuf)>,
}

/// The write in progress of this process (at most one at a time).
static IN_PROGRESS: std::sync::Mutex<InProgress> = std::sync::Mutex::new(InProgress {
    tmp: None,
    moved: None,
});

/// The write in progress, even after a panic elsewhere held the lock.
fn in_progress() -> std::sync::MutexGuard<'static, InProgress> {
    IN_PROGRESS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Undoes the write in progress: removes the temporary folder, and puts an
/// earlier output moved aside back in place.
fn undo(state: &mut InProgress) {
    if let Some(tmp) = state.tmp.take() {
        // A file being written as it goes can make one attempt fail.
        for _ in 0..3 {
            if std::fs::remove_dir_all(&tmp).is_ok() || !tmp.exists() {
                break;
            }
        }
    }
    if let Some((old, out)) = state.moved.take() {
        if !out.exists() {
            let _ = std::fs::rename(old, out);
        }
    }
}

/// Undoes this process's write in progress, if any, and ends the process
/// with `code`: for a signal handler. It waits for a rename under way, so
/// the output folder ends as the old or the new output, never missing, and
/// exits still holding the write's lock, so no other thread of the process
/// writes, renames or exits first (the write that fails as its folder goes
/// waits for the lock).
pub fn remove_in_progress_and_exit(code: i32) -> ! {
    let mut state = in_progress();
    undo(&mut state);
    std::process::exit(code)
}

/// FNV-1a, 64 bits: a short, stable stand-in for a folder name in the
/// names of its temporary siblings.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The sibling of an output folder named `name` that a run with process id
/// `pid` writes into (`kind` "tmp") or moves the earlier output to ("old"):
/// `.kh-<16 hex digits of name's hash>.<kind>-<pid>`, at most 37 bytes
/// whatever the length of `name`.
fn sibling_name(name: &str, kind: &str, pid: u32) -> String {
    format!(".kh-{:016x}.{kind}-{pid}", fnv1a(name.as_bytes()))
}

/// A sibling left by an earlier run for `name`: (its kind, "tmp" or "old",
/// and the process id), also in the earlier form `.<name>.<kind>-<pid>`.
fn parse_sibling(file: &str, name: &str) -> Option<(&'static str, u32)> {
    let hashed = format!(".kh-{:016x}.", fnv1a(name.as_bytes()));
    let legacy = format!(".{name}.");
    let rest = file
        .strip_prefix(&hashed)
        .or_else(|| file.strip_prefix(&legacy))?;
    let (kind, pid) = rest.split_once('-')?;
    let kind = ["tmp", "old"].into_iter().find(|k| *k == kind)?;
    Some((kind, pid.parse().ok()?))
}

/// Whether process `pid` is running (on systems without `/proc`: whether it
/// is this process).
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc = Path::new("/proc");
    proc.is_dir() && proc.join(pid.to_string()).exists()
}

/// Cleans what earlier runs that died left beside `out` (in `parent`):
/// when `out` is missing, the newest earlier output moved aside (`old`) is
/// put back; every other `tmp` / `old` sibling of `out` whose process is
/// gone is removed. Siblings of live processes (a concurrent run) stay.
fn recover_siblings(parent: &Path, name: &str, out: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let mut stale: Vec<(&str, std::time::SystemTime, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let (kind, pid) = parse_sibling(&file, name)?;
            let meta = std::fs::symlink_metadata(e.path()).ok()?;
            let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
            (meta.is_dir() && !process_alive(pid)).then_some((kind, modified, e.path()))
        })
        .collect();
    // Newest first: the latest earlier output is the one to put back.
    stale.sort_by_key(|s| std::cmp::Reverse(s.1));
    for (kind, _, path) in stale {
        if kind == "old" && !out.exists() && std::fs::rename(&path, out).is_ok() {
            continue;
        }
        let _ = std::fs::remove_dir_all(&path);
    }
}

/// Why `dir` may not be replaced, or `None` when it may: it is an empty
/// folder, or an earlier keyheat output — its `summary.json` holds
/// `keyheat_version` and every entry is a file that `owns` names.
fn not_replaceable(dir: &Path, owns: &dyn Fn(&str) -> bool) -> Option<String> {
    let meta = std::fs::symlink_metadata(dir).ok()?;
    if !meta.is_dir() {
        return Some("it is not a folder".into());
    }
    let entries: Vec<std::fs::DirEntry> = match std::fs::read_dir(dir) {
        Ok(e) => e.filter_map(|e| e.ok()).collect(),
        Err(e) => return Some(format!("it cannot be read ({e})")),
    };
    if entries.is_empty() {
        return None;
    }
    let summary = std::fs::read(dir.join("summary.json")).ok();
    let by_keyheat = summary
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|doc| doc.get("keyheat_version").is_some_and(|v| v.is_string()));
    if !by_keyheat {
        // Named, so the user sees whose folder it is.
        let mut names: Vec<String> = entries
            .iter()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let more = match names.len() - 1 {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        return Some(format!(
            "it holds `{}`{more}, and its summary.json (if any) was not written by keyheat",
            names[0]
        ));
    }
    let foreign = entries.iter().find(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        !(e.file_type().is_ok_and(|t| t.is_file()) && owns(&name))
    });
    foreign.map(|e| {
        format!(
            "it holds `{}`, which keyheat did not write",
            e.file_name().to_string_lossy()
        )
    })
}

/// Fills a fresh folder with `fill`, then moves it to `out` as a whole: a
/// sibling temporary folder is written first and renamed over `out` only
/// when everything succeeded, so an error never leaves a half-written output
/// folder (an earlier complete `out` is replaced only on success).
///
/// `out` is replaced only when it is empty or an earlier keyheat output: its
/// `summary.json` holds `keyheat_version` and it holds nothing but files
/// `owns` names (the files keyheat writes); anything else is refused and
/// left as it is. Before writing, what runs that died left beside `out` is
/// cleaned (see `recover_siblings`): their temporary folders are removed and,
/// when `out` is missing, the earlier output a run had moved aside is put
/// back. While the write is in progress, [`remove_in_progress_and_exit`]
/// undoes it (for a signal handler).
///
/// # Errors
/// A usage error (exit code 2) when `out` names `.` or `..`, or is a folder
/// keyheat may not replace; whatever `fill` returns; or
/// [`crate::ErrorKind::Write`] when the folder cannot be created or renamed.
pub fn write_folder<T>(
    out: &Path,
    owns: &dyn Fn(&str) -> bool,
    fill: impl FnOnce(&Path) -> Result<T>,
) -> Result<T> {
    let (parent, name) = folder_parts(out)?;
    recover_siblings(&parent, &name, out);
    check_folder(out, owns)?;
    std::fs::create_dir_all(&parent).map_err(|e| Error::write(&parent, e))?;
    let pid = std::process::id();
    let tmp = parent.join(sibling_name(&name, "tmp", pid));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| Error::write(&tmp, e))?;
    }
    std::fs::create_dir_all(&tmp).map_err(|e| Error::write(&tmp, e))?;
    in_progress().tmp = Some(tmp.clone());
    let value = match fill(&tmp) {
        Ok(v) => v,
        Err(e) => {
            undo(&mut in_progress());
            return Err(e);
        }
    };
    let old = parent.join(sibling_name(&name, "old", pid));
    // The renames under the lock: a signal handler waits for them.
    let mut state = in_progress();
    if out.exists() {
        if let Err(e) = std::fs::rename(out, &old) {
            undo(&mut state);
            return Err(Error::write(out, e));
        }
        state.moved = Some((old.clone(), out.to_path_buf()));
    }
    if let Err(e) = std::fs::rename(&tmp, out) {
        // Removes the temporary folder and puts the earlier output back.
        undo(&mut state);
        return Err(Error::write(out, e));
    }
    let moved = state.moved.take().is_some();
    state.tmp = None;
    drop(state);
    if moved {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(value)
}

#[cfg(test)]
mod tests;

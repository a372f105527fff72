//! The output contract's data files: `summary.json` and the CSV tables.
//! Each exporter renders [`RunResults`] to bytes, so outputs are snapshot
//! tested and the writing of the folder lives in one place ([`write_folder`]).

pub mod csv_tables;
pub mod summary;

pub use csv_tables::{
    growth_csv, keys_csv, nodes_csv, partitions_csv, timeseries_csv, variants_csv,
};
pub use summary::{summary_json, Summary};

use crate::error::{Error, Result};
use crate::results::RunResults;
use std::path::{Path, PathBuf};

/// One output file: its name and how to render it.
pub struct Exporter {
    /// File name inside the output folder.
    pub file_name: &'static str,
    /// Renders the file.
    pub render: fn(&RunResults) -> Result<Vec<u8>>,
}

/// The data files of the output contract, in writing order.
pub fn exporters(results: &RunResults) -> Vec<Exporter> {
    let mut v = vec![
        Exporter {
            file_name: "summary.json",
            render: summary_json,
        },
        Exporter {
            file_name: "partitions.csv",
            render: partitions_csv,
        },
        Exporter {
            file_name: "keys.csv",
            render: keys_csv,
        },
        Exporter {
            file_name: "timeseries.csv",
            render: timeseries_csv,
        },
        Exporter {
            file_name: "growth.csv",
            render: growth_csv,
        },
    ];
    if results.tables.iter().any(|t| t.nodes.is_some()) {
        v.push(Exporter {
            file_name: "nodes.csv",
            render: nodes_csv,
        });
    }
    if !results.variants.is_empty() {
        v.push(Exporter {
            file_name: "variants.csv",
            render: variants_csv,
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
            let bytes = (e.render)(results)?;
            std::fs::write(&path, bytes).map_err(|err| Error::write(&path, err))?;
            Ok(path)
        })
        .collect()
}

/// Fills a fresh folder with `fill`, then moves it to `out` as a whole: a
/// sibling temporary folder is written first and renamed over `out` only
/// when everything succeeded, so an error never leaves a half-written output
/// folder (an earlier complete `out` is replaced only on success).
///
/// # Errors
/// Whatever `fill` returns, or [`crate::ErrorKind::Write`] when the folder
/// cannot be created or renamed.
pub fn write_folder<T>(out: &Path, fill: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    let Some(name) = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n != "." && n != "..")
    else {
        return Err(Error::usage(format!(
            "--out '{}' must name a folder keyheat can create or replace, not the current or parent folder; fix: pass e.g. --out output/my-run",
            out.display()
        )));
    };
    if out.exists() && !replaceable(out) {
        return Err(Error::usage(format!(
            "--out '{}' exists and is not a keyheat output folder (it is not empty and holds no summary.json); keyheat replaces only its own outputs; fix: choose a new folder, or empty this one",
            out.display()
        )));
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| Error::write(&parent, e))?;
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| Error::write(&tmp, e))?;
    }
    std::fs::create_dir_all(&tmp).map_err(|e| Error::write(&tmp, e))?;
    let value = match fill(&tmp) {
        Ok(v) => v,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    let moved_old = if out.exists() {
        if let Err(e) = std::fs::rename(out, &old) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(Error::write(out, e));
        }
        true
    } else {
        false
    };
    if let Err(e) = std::fs::rename(&tmp, out) {
        let _ = std::fs::remove_dir_all(&tmp);
        if moved_old {
            // Put the earlier output back.
            let _ = std::fs::rename(&old, out);
        }
        return Err(Error::write(out, e));
    }
    if moved_old {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(value)
}

/// Whether `dir` may be replaced: an empty folder, or an earlier keyheat output
/// (it holds a `summary.json`).
fn replaceable(dir: &Path) -> bool {
    dir.is_dir()
        && (dir.join("summary.json").is_file()
            || std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none()))
}

#[cfg(test)]
mod tests;

//! `[[variant]]` and `[sweep]`: alternatives applied to the raw document and
//! validated into complete scenarios.
//!
//! A path names one field: `table.<table>.<field>`, `entity.<entity>.<field>`,
//! `access_pattern.<pattern>.<field>` (or `pattern.<pattern>.<field>`), `store.<setting>`,
//! `simulation.<field>` or `checks.<field>`. A path may go deeper into a
//! table-valued field that the base scenario already writes as a table
//! (`table.orders.item_size.p99`, `entity.customer.popularity.exponent`) or
//! into an index (`table.orders.index.by_status.projection`). Element names
//! may contain dots or spaces: the longest declared name that fits wins.
//! Names (`….name`), `schema_version`, the scenario `name`, `description`,
//! `variant` and `sweep` cannot be overridden.
//!
//! Each override replaces the named value in a copy of the document (adding
//! it, or the `[simulation]`/`[checks]` section, when absent), with the
//! override's own position, so an error in an overridden value points at the
//! variant's line; errors are prefixed with `variant `name` (line n): `.
//!
//! `[sweep]` lists paths with arrays of values; it expands to their cross
//! product in odometer order (the first path varies slowest, each array in
//! its written order), at most [`MAX_SWEEP_VARIANTS`] combinations. Each
//! combination is named `shards=16,bucket=1d`: the last path segment, `=`,
//! the value (strings unquoted), joined by commas; the full path is used
//! instead when two swept paths end in the same segment. `[[variant]]`s come
//! first, then the sweep; all names must be distinct.

use super::model::{Scenario, Variant, Warning};
use super::raw::{in_file_order, Node, Section, Source};
use super::suggest::{did_you_mean, list};
use super::validate::{
    CHECKS_KEYS, ENTITY_KEYS, INDEX_KEYS, PATTERN_KEYS, SIMULATION_KEYS, TABLE_KEYS,
};
use crate::error::{Error, Result};
use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

/// The largest number of combinations a `[sweep]` may expand to.
pub const MAX_SWEEP_VARIANTS: usize = 1000;

/// Sections a path may start with.
const SECTIONS: &[&str] = &[
    "table",
    "entity",
    "access_pattern",
    "store",
    "simulation",
    "checks",
];

/// One step from the document root towards the overridden value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// A key of a table.
    Key(String),
    /// An element of an array of tables.
    Elem(usize),
}

/// One `path = value` override, resolved against the base document.
struct Override<'a, 'i> {
    path: String,
    key_span: Range<usize>,
    value: &'a Node<'i>,
    steps: Vec<Step>,
}

/// A variant before validation.
struct Spec<'a, 'i> {
    name: String,
    name_span: Range<usize>,
    /// The line errors are attributed to (the variant's or `[sweep]`'s header).
    line: usize,
    overrides: Vec<Override<'a, 'i>>,
}

/// Names no variant may take: the outputs' own names for the base design and
/// for "no design passes".
const RESERVED_NAMES: [&str; 2] = ["base", "none"];

/// Expands `[[variant]]` and `[sweep]` of a validated base document.
pub(crate) fn expand(src: &Source, doc: &DeTable) -> Result<Vec<Variant>> {
    let root = Section::root(src, doc);
    let mut specs = variants(&root, doc)?;
    specs.extend(sweep(&root, doc)?);
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for spec in &specs {
        // "base" names the scenario's own design in every output, and
        // "none" the recommendation that no design passes.
        if let Some(taken) = RESERVED_NAMES.iter().find(|&&n| n == spec.name) {
            return Err(src.error(
                &spec.name_span,
                format!("variant.{}", spec.name),
                format!(
                    "a variant cannot be named `{taken}`: every output already uses `{taken}` for {}",
                    if *taken == "base" {
                        "the scenario's own design"
                    } else {
                        "a recommendation that no design passes"
                    }
                ),
                format!("give the variant another name, e.g. name = \"{taken}-2\""),
            ));
        }
        if let Some(line) = seen.get(spec.name.as_str()) {
            return Err(src.error(
                &spec.name_span,
                format!("variant.{}", spec.name),
                format!(
                    "duplicate variant name `{}` (first on line {line})",
                    spec.name
                ),
                "give each variant a different name",
            ));
        }
        seen.insert(&spec.name, src.position(spec.name_span.start).0);
    }
    specs.iter().map(|spec| build(src, doc, spec)).collect()
}

/// Applies a spec's overrides to a copy of `doc` and validates it.
fn build(src: &Source, doc: &DeTable, spec: &Spec) -> Result<Variant> {
    let mut copy = doc.clone();
    copy.remove("variant");
    copy.remove("sweep");
    for o in &spec.overrides {
        if !apply(&mut copy, &o.steps, &o.key_span, o.value) {
            // `resolve` checked the path against this same document.
            return Err(src.error(
                &o.key_span,
                o.path.clone(),
                format!(
                    "variant `{}` (line {}): cannot set `{}`",
                    spec.name, spec.line, o.path
                ),
                "set the whole value instead of a part of it",
            ));
        }
    }
    let kind = spec.overrides.iter().any(|o| o.path == "store.kind");
    let scenario = super::validate::scenario(src, &copy)
        .map_err(|e| in_variant_of(e, (&spec.name, spec.line), kind))?;
    Ok(Variant {
        name: spec.name.clone(),
        set: spec
            .overrides
            .iter()
            .map(|o| (o.path.clone(), to_json(o.value)))
            .collect(),
        scenario: Box::new(Scenario {
            variants: Vec::new(),
            ..scenario
        }),
        line: spec.line,
    })
}

/// Warnings for variants whose store capacity `[pricing]`'s own provisioned
/// units override: every design is priced at the `[pricing]` units, so the
/// variant's cost does not follow its capacity (a new user's variant at
/// 60,000 RU/s was priced as the base's 30,000, doubling the RU/s for free).
pub(crate) fn pricing_warnings(scenario: &Scenario) -> Vec<Warning> {
    let Some(pricing) = &scenario.pricing else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for v in &scenario.variants {
        for (path, value) in &v.set {
            let (units, side) = match path.as_str() {
                "store.throughput" | "store.read_capacity" => {
                    (pricing.provisioned_read_units, "read")
                }
                "store.write_capacity" => (pricing.provisioned_write_units, "write"),
                _ => continue,
            };
            let Some(units) = units else { continue };
            out.push(Warning {
                path: scenario.source_path.clone(),
                line: v.line,
                column: 1,
                key: format!("variant.{}.set", v.name),
                message: format!(
                    "variant `{}` sets {path} = {value}, but [pricing] provisioned_{side}_units = {} prices every design at {} units: the variant's cost does not follow its capacity",
                    v.name,
                    crate::format::exact(units),
                    crate::format::exact(units)
                ),
                fix: format!(
                    "remove provisioned_{side}_units from [pricing] to price each design at its own {}",
                    path.trim_start_matches("store.")
                ),
            });
        }
    }
    out
}

/// Prefixes a scenario error's message with the variant it arose in.
///
/// ```
/// let e = keyheat::Error::scenario("s.toml", (3, 1), "store.x", "bad", "fix it");
/// let e = keyheat::scenario::variants::in_variant(e, "a", 23);
/// assert!(e.to_string().starts_with("s.toml:3:1: store.x: variant `a` (line 23): bad"));
/// ```
pub fn in_variant(err: Error, name: &str, at_line: usize) -> Error {
    err.rewritten(
        |message| format!("variant `{name}` (line {at_line}): {message}"),
        str::to_string,
    )
}

/// [`in_variant`], and where the variant sets `store.kind` (`kind`), a
/// fix that says the base's `[store]` keys still apply to the new store
/// (helper-55's MongoDB `shards` under a variant's Cassandra was blamed on
/// the base's line without a word about the variant's kind).
pub fn in_variant_of(err: Error, (name, at_line): (&str, usize), kind: bool) -> Error {
    let err = in_variant(err, name, at_line);
    if !kind {
        return err;
    }
    err.rewritten(str::to_string, |fix| {
        format!(
            "{fix}; the variant sets store.kind, and the base's [store] keys still apply to the new store, which does not take this one: compare stores as whole files with `keyheat compare base.toml other.toml`"
        )
    })
}

/// Reads `[[variant]]`s.
fn variants<'a, 'i>(root: &Section<'a, 'i>, doc: &'a DeTable<'i>) -> Result<Vec<Spec<'a, 'i>>> {
    let mut out = Vec::new();
    for section in root.elements("variant", "[[variant]]")? {
        section.deny_unknown(&["name", "set"])?;
        let name_field = section.require("name", "name = \"sharded-16\"")?;
        let name = name_field.str("name = \"sharded-16\"")?;
        if name.trim().is_empty() {
            return Err(name_field.error("the name is empty", "write name = \"sharded-16\""));
        }
        let example = "set = { \"table.orders.shards\" = 16 }";
        let set = section.require("set", example)?.table(example)?;
        if set.table.is_empty() {
            return Err(section.src.error(
                &set.span,
                set.key.clone(),
                "set is empty",
                format!("write {example}"),
            ));
        }
        let mut overrides = Vec::new();
        for (k, value) in in_file_order(set.table) {
            let path = k.get_ref().as_ref();
            let key = format!("{}.\"{path}\"", set.key);
            let steps = resolve_written(root.src, doc, path, &k.span(), value, &key)?;
            overrides.push(Override {
                path: path.to_string(),
                key_span: k.span(),
                value,
                steps,
            });
        }
        out.push(Spec {
            name: name.to_string(),
            name_span: name_field.span(),
            line: root.src.position(section.span.start).0,
            overrides,
        });
    }
    Ok(out)
}

/// Reads `[sweep]` and expands it to one spec per combination.
fn sweep<'a, 'i>(root: &Section<'a, 'i>, doc: &'a DeTable<'i>) -> Result<Vec<Spec<'a, 'i>>> {
    let example = "[sweep]\n\"table.orders.shards\" = [1, 4, 16]";
    let Some(section) = root.subsection("sweep", example)? else {
        return Ok(Vec::new());
    };
    let src = root.src;
    if section.table.is_empty() {
        return Err(src.error(
            &section.span,
            "sweep",
            "[sweep] lists no paths",
            format!("write {example}"),
        ));
    }
    struct Axis<'a, 'i> {
        path: &'a str,
        key_span: Range<usize>,
        values: &'a DeArray<'i>,
        steps: Vec<Step>,
    }
    let mut axes = Vec::new();
    let mut combinations: usize = 1;
    for (k, value) in in_file_order(section.table) {
        let path = k.get_ref().as_ref();
        let key = format!("sweep.\"{path}\"");
        let steps = resolve_written(src, doc, path, &k.span(), value, &key)?;
        let DeValue::Array(values) = value.get_ref() else {
            return Err(src.error(
                &value.span(),
                key,
                format!(
                    "expected an array of values, found {} `{}`",
                    value.get_ref().type_str(),
                    src.snippet(&value.span())
                ),
                format!("write \"{path}\" = [ … ] with one value per variant"),
            ));
        };
        if values.is_empty() {
            return Err(src.error(
                &value.span(),
                key,
                "the array is empty",
                format!("list at least one value for `{path}`"),
            ));
        }
        combinations = combinations.saturating_mul(values.len());
        if combinations > MAX_SWEEP_VARIANTS {
            return Err(src.error(
                &value.span(),
                key,
                format!("the sweep expands to more than {MAX_SWEEP_VARIANTS} combinations"),
                "sweep fewer values, or split the scenario into several files",
            ));
        }
        axes.push(Axis {
            path,
            key_span: k.span(),
            values,
            steps,
        });
    }
    let label = |axis: &Axis| -> String {
        let last = axis.path.rsplit('.').next().unwrap_or(axis.path);
        let clash = axes
            .iter()
            .filter(|a| a.path.rsplit('.').next() == Some(last))
            .count()
            > 1;
        if clash {
            axis.path.to_string()
        } else {
            last.to_string()
        }
    };
    let labels: Vec<String> = axes.iter().map(label).collect();
    let line = src.position(section.span.start).0;
    let mut out = Vec::with_capacity(combinations);
    let mut digits = vec![0usize; axes.len()];
    loop {
        let mut name_parts = Vec::with_capacity(axes.len());
        let mut overrides = Vec::with_capacity(axes.len());
        for ((axis, label), &d) in axes.iter().zip(&labels).zip(&digits) {
            // `d` < values.len(): the odometer below keeps each digit in range.
            let value = &axis.values[d];
            name_parts.push(format!("{label}={}", display(&to_json(value))));
            overrides.push(Override {
                path: axis.path.to_string(),
                key_span: axis.key_span.clone(),
                value,
                steps: axis.steps.clone(),
            });
        }
        out.push(Spec {
            name: name_parts.join(","),
            name_span: section.span.clone(),
            line,
            overrides,
        });
        // Odometer: the last axis varies fastest.
        let mut i = axes.len();
        loop {
            if i == 0 {
                return Ok(out);
            }
            i -= 1;
            digits[i] += 1;
            if digits[i] < axes[i].values.len() {
                break;
            }
            digits[i] = 0;
        }
    }
}

/// A sweep value as written in a variant name: strings unquoted.
fn display(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Resolves a path written as a key at `key_span`, turning failures into errors.
fn resolve_written(
    src: &Source,
    doc: &DeTable,
    path: &str,
    key_span: &Range<usize>,
    value: &Node,
    key: &str,
) -> Result<Vec<Step>> {
    if !path.contains('.')
        && !src.is_quoted(key_span)
        && matches!(value.get_ref(), DeValue::Table(_))
    {
        return Err(src.error(
            key_span,
            key,
            "a path must be one quoted key: unquoted dots make nested tables",
            "quote the whole path, e.g. { \"table.orders.shards\" = 16 }",
        ));
    }
    resolve(doc, path).map_err(|(message, fix)| {
        src.error(
            key_span,
            key,
            format!("`{path}` names nothing: {message}"),
            fix,
        )
    })
}

/// Resolves `path` against the base document into steps; `(message, fix)` on failure.
fn resolve(doc: &DeTable, path: &str) -> std::result::Result<Vec<Step>, (String, String)> {
    let (section, rest) = path.split_once('.').unwrap_or((path, ""));
    // `pattern.<name>.…` is short for `access_pattern.<name>.…`.
    let section = if section == "pattern" {
        "access_pattern"
    } else {
        section
    };
    if !SECTIONS.contains(&section) {
        if ["schema_version", "name", "description", "variant", "sweep"].contains(&section) {
            return Err((
                format!("`{section}` cannot be overridden by a variant"),
                format!("paths start with {}", list(SECTIONS.iter().copied())),
            ));
        }
        return Err(match did_you_mean(section, SECTIONS.iter().copied()) {
            Some(close) => (
                format!("unknown section `{section}`; did you mean `{close}`?"),
                format!("write \"{close}.{rest}\""),
            ),
            None => (
                format!("unknown section `{section}`"),
                format!("paths start with {}", list(SECTIONS.iter().copied())),
            ),
        });
    }
    let mut steps = vec![Step::Key(section.to_string())];
    if rest.is_empty() {
        return Err((
            format!("`{section}` is a whole section, not a field"),
            format!("name a field, e.g. \"{}\"", example_path(section)),
        ));
    }
    match section {
        "table" | "entity" | "access_pattern" => {
            let what = section.replace('_', " ");
            let Some(DeValue::Array(items)) = doc.get(section).map(|n| n.get_ref()) else {
                return Err((
                    format!("the scenario has no [[{section}]]"),
                    format!("declare the {what} first, then override one of its fields"),
                ));
            };
            let (index, name, field_path) = element(items, rest, &what, section)?;
            steps.push(Step::Elem(index));
            let keys = match section {
                "table" => TABLE_KEYS,
                "entity" => ENTITY_KEYS,
                _ => PATTERN_KEYS,
            };
            let Some(DeValue::Table(table)) = items.get(index).map(|n| n.get_ref()) else {
                return Err((format!("{what} `{name}` is not a table"), String::new()));
            };
            let prefix = format!("{section}.{name}");
            walk(
                Some(table),
                field_path,
                Some(keys),
                &prefix,
                &format!("{what} `{name}`"),
                &mut steps,
            )?;
        }
        _ => {
            let table = match doc.get(section).map(|n| n.get_ref()) {
                Some(DeValue::Table(t)) => Some(t),
                _ => None,
            };
            let keys = match section {
                "simulation" => Some(SIMULATION_KEYS),
                "checks" => Some(CHECKS_KEYS),
                // Store settings depend on the kind; the validated variant reports unknown ones.
                _ => None,
            };
            walk(
                table,
                rest,
                keys,
                section,
                &format!("[{section}]"),
                &mut steps,
            )?;
        }
    }
    Ok(steps)
}

/// An example path for a section, for fixes.
fn example_path(section: &str) -> &'static str {
    match section {
        "table" => "table.orders.shards",
        "entity" => "entity.customer.count",
        "access_pattern" => "access_pattern.Create order.rate",
        "store" => "store.write_capacity",
        "simulation" => "simulation.trials",
        _ => "checks.headroom",
    }
}

/// Finds the element of `items` whose `name` starts `rest` (followed by `.`):
/// (index, name, the rest after the name and the dot).
fn element<'r>(
    items: &DeArray,
    rest: &'r str,
    what: &str,
    prefix: &str,
) -> std::result::Result<(usize, String, &'r str), (String, String)> {
    let names: Vec<(usize, &str)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, n)| node_name(n).map(|name| (i, name)))
        .collect();
    let mut best: Option<(usize, &str)> = None;
    for &(i, name) in &names {
        if rest == name {
            return Err((
                format!("`{prefix}.{name}` is the whole {what}, not a field"),
                format!(
                    "name a field, e.g. \"{prefix}.{name}.{}\"",
                    example_path(prefix).rsplit('.').next().unwrap_or("")
                ),
            ));
        }
        let fits = rest
            .strip_prefix(name)
            .is_some_and(|after| after.starts_with('.'));
        if fits && best.is_none_or(|(_, b)| name.len() > b.len()) {
            best = Some((i, name));
        }
    }
    if let Some((i, name)) = best {
        return Ok((i, name.to_string(), &rest[name.len() + 1..]));
    }
    let guess = rest.rsplit_once('.').map_or(rest, |(head, _)| head);
    let field = rest.rsplit_once('.').map_or("", |(_, f)| f);
    let declared = list(names.iter().map(|&(_, n)| n));
    // A misspelt table before `.index.` (helper-90's
    // `table.user.index.recnt.shards`): the table meant, and its index.
    let misspelt_owner = rest
        .split_once(".index.")
        .filter(|_| what == "table")
        .and_then(|(table, after)| {
            let close = did_you_mean(table, names.iter().map(|&(_, n)| n))?;
            let (index, field) = after.split_once('.').unwrap_or((after, ""));
            let indexes = index_names(items, close);
            let index = did_you_mean(index, indexes.iter().copied())
                .map_or(index.to_string(), str::to_string);
            Some((table, close, format!("{index}.{field}")))
        });
    if let Some((table, close, after)) = misspelt_owner {
        return Err((
            format!(
                "there is no table named `{table}` (declared: {declared}); did you mean `{close}`?"
            ),
            format!("write \"{prefix}.{close}.index.{after}\""),
        ));
    }
    if let Some(owner) = index_owner(items, guess).filter(|_| what == "table") {
        // An index named as a table: its path goes through its table.
        return Err((
            format!("there is no table named `{guess}` (declared: {declared}): `{guess}` is an index of table `{owner}`"),
            format!("write \"{prefix}.{owner}.index.{guess}.{field}\""),
        ));
    }
    Err(match did_you_mean(guess, names.iter().map(|&(_, n)| n)) {
        Some(close) => (
            format!("there is no {what} named `{guess}` (declared: {declared}); did you mean `{close}`?"),
            format!("write \"{prefix}.{close}.{field}\""),
        ),
        None => (
            format!("there is no {what} named `{guess}` (declared: {declared})"),
            format!("write \"{}\" with a declared {what} name", example_path(prefix)),
        ),
    })
}

/// The `name` of a `[[table]]` or `[[table.index]]` node, if it has one.
fn node_name<'a>(node: &'a Node<'_>) -> Option<&'a str> {
    match node.get_ref() {
        DeValue::Table(t) => match t.get("name").map(|v| v.get_ref()) {
            Some(DeValue::String(s)) => Some(s.as_ref()),
            _ => None,
        },
        _ => None,
    }
}

/// The names of a `[[table]]` node's `[[table.index]]`es.
fn index_names_of<'a>(table: &'a Node<'_>) -> Vec<&'a str> {
    match table.get_ref() {
        DeValue::Table(t) => match t.get("index").map(|v| v.get_ref()) {
            Some(DeValue::Array(indexes)) => indexes.iter().filter_map(node_name).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The names of the `[[table.index]]`es of table `table` among `tables`.
fn index_names<'a>(tables: &'a DeArray, table: &str) -> Vec<&'a str> {
    tables
        .iter()
        .find(|t| node_name(t) == Some(table))
        .map_or_else(Vec::new, index_names_of)
}

/// The name of the `[[table]]` among `tables` with an `[[table.index]]`
/// named `index`, if any.
fn index_owner(tables: &DeArray, index: &str) -> Option<String> {
    tables
        .iter()
        .find(|t| index_names_of(t).contains(&index))
        .and_then(node_name)
        .map(str::to_string)
}

/// Walks the field part of a path (`shards`, `item_size.p99`,
/// `index.by_status.projection`) from `table`, pushing steps.
fn walk(
    table: Option<&DeTable>,
    rest: &str,
    keys: Option<&[&str]>,
    prefix: &str,
    context: &str,
    steps: &mut Vec<Step>,
) -> std::result::Result<(), (String, String)> {
    let (field, more) = match rest.split_once('.') {
        Some((f, m)) => (f, Some(m)),
        None => (rest, None),
    };
    if let Some(keys) = keys {
        if field == "name" {
            return Err((
                format!("{context}: names cannot be overridden (access patterns and templates refer to them)"),
                "add a separate [[table]] / [[entity]] / [[access_pattern]] instead".into(),
            ));
        }
        if !keys.contains(&field) {
            return Err(match did_you_mean(field, keys.iter().copied()) {
                Some(close) => (
                    format!("{context} has no field `{field}`; did you mean `{close}`?"),
                    format!(
                        "write \"{prefix}.{close}{}\"",
                        more.map(|m| format!(".{m}")).unwrap_or_default()
                    ),
                ),
                None => (
                    format!("{context} has no field `{field}`"),
                    format!(
                        "{context} has fields {}",
                        list(keys.iter().copied().filter(|k| *k != "name"))
                    ),
                ),
            });
        }
    }
    steps.push(Step::Key(field.to_string()));
    let Some(more) = more else {
        if field == "index" {
            return Err((
                format!("`{prefix}.index` is the list of indexes, not a field"),
                format!("name an index field, e.g. \"{prefix}.index.<index name>.projection\""),
            ));
        }
        return Ok(());
    };
    let here = format!("{prefix}.{field}");
    let whole = (
        format!("`{here}` is not written as a table in the base scenario, so a part of it cannot be set"),
        format!("set the whole value: \"{here}\" = {{ … }}"),
    );
    match table.and_then(|t| t.get(field)).map(|n| n.get_ref()) {
        Some(DeValue::Table(inner)) => {
            walk(Some(inner), more, None, &here, &format!("`{here}`"), steps)
        }
        Some(DeValue::Array(items)) if field == "index" => {
            let (index, name, field_path) = element(items, more, "index", &here)?;
            steps.push(Step::Elem(index));
            let Some(DeValue::Table(inner)) = items.get(index).map(|n| n.get_ref()) else {
                return Err(whole);
            };
            let prefix = format!("{here}.{name}");
            walk(
                Some(inner),
                field_path,
                Some(INDEX_KEYS),
                &prefix,
                &format!("index `{name}`"),
                steps,
            )
        }
        _ => Err(whole),
    }
}

/// Sets the value at `steps` in `doc` to `value`, keyed at `key_span`
/// (creating a missing section table). `false` when the path does not fit.
fn apply<'i>(
    doc: &mut DeTable<'i>,
    steps: &[Step],
    key_span: &Range<usize>,
    value: &Node<'i>,
) -> bool {
    let Some((Step::Key(last), init)) = steps.split_last() else {
        return false;
    };
    let mut table: &mut DeTable<'i> = doc;
    let mut i = 0;
    while i < init.len() {
        let Step::Key(key) = &init[i] else {
            return false;
        };
        if !table.contains_key(key.as_str()) {
            table.insert(
                Spanned::new(key_span.clone(), Cow::Owned(key.clone())),
                Spanned::new(key_span.clone(), DeValue::Table(DeTable::new())),
            );
        }
        let Some(node) = table.get_mut(key.as_str()) else {
            return false;
        };
        let node = match (init.get(i + 1), node.get_mut()) {
            (Some(Step::Elem(e)), DeValue::Array(items)) => {
                i += 1;
                match items.get_mut(*e) {
                    Some(item) => item.get_mut(),
                    None => return false,
                }
            }
            (_, other) => other,
        };
        let DeValue::Table(inner) = node else {
            return false;
        };
        table = inner;
        i += 1;
    }
    table.remove(last.as_str());
    table.insert(
        Spanned::new(key_span.clone(), Cow::Owned(last.clone())),
        value.clone(),
    );
    true
}

/// A TOML value as JSON (datetimes as strings, non-finite floats as written).
fn to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value;
    match node.get_ref() {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(v) => Value::from(v),
            Err(_) => Value::String(i.to_string()),
        },
        DeValue::Float(f) => f
            .as_str()
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::String(f.as_str().to_string()), Value::Number),
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        DeValue::Table(t) => Value::Object(
            in_file_order(t)
                .into_iter()
                .map(|(k, v)| (k.get_ref().to_string(), to_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
[[access_pattern]]
name = "read"
[[access_pattern]]
name = "read.v2"
[[table]]
name = "t"
item_size = { distribution = "lognormal", median = 1, p99 = 2 }
[[table.index]]
name = "g"
"#;

    fn key(k: &str) -> Step {
        Step::Key(k.to_string())
    }

    #[test]
    fn the_longest_element_name_wins() {
        let doc = DeTable::parse(TEXT).unwrap();
        let doc = doc.get_ref();
        assert_eq!(
            resolve(doc, "access_pattern.read.v2.rate"),
            Ok(vec![key("access_pattern"), Step::Elem(1), key("rate")])
        );
        assert_eq!(
            resolve(doc, "access_pattern.read.rate"),
            Ok(vec![key("access_pattern"), Step::Elem(0), key("rate")])
        );
        assert_eq!(
            resolve(doc, "table.t.index.g.projection"),
            Ok(vec![
                key("table"),
                Step::Elem(0),
                key("index"),
                Step::Elem(0),
                key("projection")
            ])
        );
        assert_eq!(
            resolve(doc, "table.t.item_size.p99"),
            Ok(vec![
                key("table"),
                Step::Elem(0),
                key("item_size"),
                key("p99")
            ])
        );
        assert_eq!(
            resolve(doc, "simulation.trials"),
            Ok(vec![key("simulation"), key("trials")])
        );
    }

    #[test]
    fn paths_that_name_nothing() {
        let doc = DeTable::parse(TEXT).unwrap();
        let doc = doc.get_ref();
        let message = |path: &str| resolve(doc, path).unwrap_err().0;
        assert_eq!(
            message("table.t"),
            "`table.t` is the whole table, not a field"
        );
        assert_eq!(
            message("table.t.name"),
            "table `t`: names cannot be overridden (access patterns and templates refer to them)"
        );
        assert_eq!(message("name"), "`name` cannot be overridden by a variant");
        assert_eq!(message("entity.x.count"), "the scenario has no [[entity]]");
        assert_eq!(
            message("simulation.trails"),
            "[simulation] has no field `trails`; did you mean `trials`?"
        );
        assert_eq!(
            message("table.t.index.h.projection"),
            "there is no index named `h` (declared: `g`)"
        );
    }

    #[test]
    fn apply_replaces_values_and_creates_sections() {
        let parsed = DeTable::parse(TEXT).unwrap();
        let value_doc = DeTable::parse("v = 7").unwrap();
        let value = value_doc.get_ref().get("v").unwrap();
        let mut doc = parsed.get_ref().clone();
        assert!(apply(
            &mut doc,
            &[key("simulation"), key("trials")],
            &(0..1),
            value
        ));
        assert!(apply(
            &mut doc,
            &[key("table"), Step::Elem(0), key("shards")],
            &(0..1),
            value
        ));
        assert!(!apply(
            &mut doc,
            &[key("table"), Step::Elem(5), key("shards")],
            &(0..1),
            value
        ));
        let root = DeValue::Table(doc);
        let trials = root
            .get("simulation")
            .and_then(|s| s.get_ref().get("trials"));
        assert_eq!(
            trials
                .and_then(|t| t.get_ref().as_integer())
                .map(|i| i.as_str().to_string()),
            Some("7".into())
        );
        let table = root.get("table").and_then(|t| t.get_ref().get(0)).unwrap();
        assert!(table.get_ref().get("shards").is_some());
    }
}

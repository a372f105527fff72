//! `keyheat import terraform FILE.tf`: the `aws_dynamodb_table` resources
//! of a Terraform configuration (HCL, parsed with `hcl-rs`): `name`,
//! `hash_key`, `range_key`, `attribute`, `billing_mode`, `read_capacity`,
//! `write_capacity`, `global_secondary_index`, `local_secondary_index`,
//! `ttl`; and calls of the terraform-aws-modules/dynamodb-table module
//! (`module "x" { source = "terraform-aws-modules/dynamodb-table/aws" … }`),
//! whose inputs (`attributes`, `global_secondary_indexes`, …) read as the
//! resource's. A `var.x` takes `variable "x"`'s `default` when the file
//! declares one; any other expression (a resource attribute, a function
//! call, a `dynamic` block) is a placeholder.

use super::dynamodb::{self, Billing, Capacity, Index, KeyAttr, Projection, Source, Table};
use super::{error, position_of};
use crate::error::Result;
use hcl::{Block, Body, Expression};
use std::collections::BTreeMap;

/// The draft of a configuration's text; `file` names it.
///
/// # Errors
/// A located error when the text is not HCL, holds no `aws_dynamodb_table`
/// resource, or one has no `hash_key`.
pub fn draft(text: &str, file: &str) -> Result<super::draft::Draft> {
    let body: Body = hcl::parse(text).map_err(|e| {
        let (at, what) = match &e {
            hcl::Error::Parse(p) => (
                (p.location().line().max(1), p.location().column().max(1)),
                p.message().to_string(),
            ),
            other => ((1, 1), other.to_string()),
        };
        error(
            file,
            at,
            "terraform",
            format!("not HCL: {what}"),
            "import a Terraform configuration file (.tf, HCL syntax)",
        )
    })?;
    let vars: BTreeMap<String, Expression> = body
        .blocks()
        .filter(|b| b.identifier() == "variable")
        .filter_map(|b| {
            let name = b.labels().first()?.as_str().to_string();
            let default = attr(b.body(), "default")?.clone();
            Some((name, default))
        })
        .collect();
    let mut tables = Vec::new();
    let mut skipped = Vec::new();
    for b in body.blocks() {
        let labels: Vec<&str> = b.labels().iter().map(|l| l.as_str()).collect();
        let id = labels.get(1).or(labels.first()).copied().unwrap_or("table");
        let at = position_of(text, &format!("\"{id}\""));
        if b.identifier() == "resource" && labels.first() == Some(&"aws_dynamodb_table") {
            let here = format!("aws_dynamodb_table.{id}");
            tables.push(table(b, &here, &vars, at, file, &mut skipped)?);
        } else if b.identifier() == "module" {
            let here = format!("module.{id}");
            if let Some(resource) = module_table(b.body(), &here, &vars, &mut skipped) {
                let mut t = table(&resource, &here, &vars, at, file, &mut skipped)?;
                t.notes.push(format!(
                    "{here} calls the terraform-aws-modules/dynamodb-table module: its inputs read as the resource's (billing_mode defaults to PAY_PER_REQUEST there)"
                ));
                tables.push(t);
            }
        }
    }
    if tables.is_empty() {
        return Err(error(
            file,
            (1, 1),
            "resource",
            "the configuration has no resource \"aws_dynamodb_table\" and no call of the terraform-aws-modules/dynamodb-table module",
            "import the .tf file that declares the table (another module's call is not expanded: import that module's own file)",
        ));
    }
    let src = Source {
        kind: "terraform",
        file: file.to_string(),
        title: std::path::Path::new(file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| s != "main")
            .or_else(|| tables.first().map(|t| t.name.clone())),
        read: vec!["Terraform configuration; a var.x takes variable \"x\"'s default when the file declares one.".to_string()],
        skipped,
    };
    Ok(dynamodb::draft(&src, &tables))
}

/// The inputs of a call of the terraform-aws-modules/dynamodb-table module
/// (registry `terraform-aws-modules/dynamodb-table/aws`) as an
/// `aws_dynamodb_table` resource block: its attributes as they are, the
/// `global_secondary_indexes` / `local_secondary_indexes` lists as index
/// blocks, `ttl_enabled` / `ttl_attribute_name` as a `ttl` block, and the
/// module's default `billing_mode = "PAY_PER_REQUEST"` when the call does
/// not set one. `None` for another module, or a call with `create_table =
/// false`.
fn module_table(
    body: &Body,
    here: &str,
    vars: &BTreeMap<String, Expression>,
    skipped: &mut Vec<String>,
) -> Option<Block> {
    let source = text(attr(body, "source"), vars).unwrap_or_default();
    let dynamodb_module = source.contains("dynamodb-table")
        || (source.starts_with('.') && attr(body, "hash_key").is_some());
    if !dynamodb_module {
        return None;
    }
    if matches!(
        value(attr(body, "create_table"), vars),
        Ok(Expression::Bool(false))
    ) {
        skipped.push(format!("{here}: create_table = false"));
        return None;
    }
    let ident = |k: &str| hcl::Identifier::sanitized(k);
    let mut b = Block::builder("resource")
        .add_label("aws_dynamodb_table")
        .add_label(here.rsplit('.').next().unwrap_or("table"));
    const LISTS: [&str; 2] = ["global_secondary_indexes", "local_secondary_indexes"];
    for a in body.attributes() {
        if !LISTS.contains(&a.key()) && !a.key().starts_with("ttl_") {
            b = b.add_attribute(hcl::Attribute::new(ident(a.key()), a.expr().clone()));
        }
    }
    if attr(body, "billing_mode").is_none() {
        b = b.add_attribute(hcl::Attribute::new(
            ident("billing_mode"),
            "PAY_PER_REQUEST",
        ));
    }
    for (list, block) in LISTS
        .iter()
        .zip(["global_secondary_index", "local_secondary_index"])
    {
        match attr(body, list) {
            Some(Expression::Array(xs)) => {
                for x in xs {
                    if let Expression::Object(o) = x {
                        let attrs = o.iter().map(|(k, v)| {
                            hcl::Attribute::new(ident(k.to_string().trim_matches('"')), v.clone())
                        });
                        b = b.add_block(Block::builder(block).add_attributes(attrs).build());
                    }
                }
            }
            Some(other) => {
                skipped.push(format!("{here}: {list} = {other} (not a list written out)"))
            }
            None => {}
        }
    }
    if let Some(enabled) = attr(body, "ttl_enabled") {
        let mut ttl = Block::builder("ttl")
            .add_attribute(hcl::Attribute::new(ident("enabled"), enabled.clone()));
        if let Some(name) = attr(body, "ttl_attribute_name") {
            ttl = ttl.add_attribute(hcl::Attribute::new(ident("attribute_name"), name.clone()));
        }
        b = b.add_block(ttl.build());
    }
    Some(b.build())
}

fn attr<'a>(body: &'a Body, key: &str) -> Option<&'a Expression> {
    body.attributes().find(|a| a.key() == key).map(|a| a.expr())
}

/// An expression's value: a literal, a `var.x` with a default, or
/// `Err(its text)`.
fn value(
    e: Option<&Expression>,
    vars: &BTreeMap<String, Expression>,
) -> std::result::Result<Expression, String> {
    let Some(e) = e else {
        return Err("not given".to_string());
    };
    match e {
        Expression::String(_) | Expression::Number(_) | Expression::Bool(_) => Ok(e.clone()),
        Expression::Traversal(t) => {
            let var = matches!(&t.expr, Expression::Variable(v) if v.as_str() == "var");
            match (var, t.operators.as_slice()) {
                (true, [hcl::expr::TraversalOperator::GetAttr(name)]) => vars
                    .get(name.as_str())
                    .filter(|d| {
                        matches!(
                            d,
                            Expression::String(_) | Expression::Number(_) | Expression::Bool(_)
                        )
                    })
                    .cloned()
                    .ok_or_else(|| format!("var.{name}, a variable without a default here")),
                _ => Err(format!("`{e}`")),
            }
        }
        Expression::TemplateExpr(t) => {
            // "${var.x}" (Terraform 0.11) is var.x.
            let raw = t.to_string();
            let inner = raw
                .trim_matches('"')
                .strip_prefix("${")
                .and_then(|s| s.strip_suffix('}'));
            match inner.and_then(|s| s.strip_prefix("var.")) {
                Some(name)
                    if name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
                {
                    vars.get(name)
                        .cloned()
                        .ok_or_else(|| format!("var.{name}, a variable without a default here"))
                }
                _ => Err(format!("the template {raw}")),
            }
        }
        other => Err(format!("`{other}`")),
    }
}

fn text(e: Option<&Expression>, vars: &BTreeMap<String, Expression>) -> Option<String> {
    match value(e, vars).ok()? {
        Expression::String(s) => Some(s),
        Expression::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn capacity(
    e: Option<&Expression>,
    key: &str,
    at: &str,
    vars: &BTreeMap<String, Expression>,
) -> Capacity {
    match value(e, vars) {
        Ok(Expression::Number(n)) => match n.as_f64() {
            Some(x) if x >= 0.0 => Capacity::Known(x, format!("{at}.{key}")),
            _ => Capacity::Unknown(format!("{at}.{key} is not a number")),
        },
        Ok(Expression::String(s)) => match s.trim().parse::<f64>() {
            Ok(x) if x >= 0.0 => Capacity::Known(x, format!("{at}.{key}")),
            _ => Capacity::Unknown(format!("{at}.{key} is not a number")),
        },
        Ok(_) => Capacity::Unknown(format!("{at}.{key} is not a number")),
        Err(why) => Capacity::Unknown(format!("{at}.{key} is {why}")),
    }
}

/// `attribute` blocks (or the 0.11 list of objects) → name → type.
fn attribute_types(b: &Body, vars: &BTreeMap<String, Expression>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for a in b.blocks().filter(|x| x.identifier() == "attribute") {
        if let (Some(n), Some(t)) = (
            text(attr(a.body(), "name"), vars),
            text(attr(a.body(), "type"), vars),
        ) {
            out.insert(n, t);
        }
    }
    if let Some(Expression::Array(xs)) = attr(b, "attribute").or_else(|| attr(b, "attributes")) {
        for x in xs {
            if let Expression::Object(o) = x {
                let get = |k: &str| {
                    o.iter()
                        .find(|(key, _)| key.to_string().trim_matches('"') == k)
                        .and_then(|(_, v)| text(Some(v), vars))
                };
                if let (Some(n), Some(t)) = (get("name"), get("type")) {
                    out.insert(n, t);
                }
            }
        }
    }
    out
}

/// `x` of `var.x` (a stand-in attribute name for an expression).
fn stand_in_name(e: &Expression) -> Option<String> {
    match e {
        Expression::Traversal(t) => match t.operators.last() {
            Some(hcl::expr::TraversalOperator::GetAttr(name)) => Some(name.to_string()),
            _ => None,
        },
        _ => None,
    }
}

fn table(
    b: &Block,
    here: &str,
    vars: &BTreeMap<String, Expression>,
    at: (usize, usize),
    file: &str,
    skipped: &mut Vec<String>,
) -> Result<Table> {
    let body = b.body();
    let types = attribute_types(body, vars);
    let key = |name: String| KeyAttr::named(&name, types.get(&name).map_or("", String::as_str));
    let hash_expr = attr(body, "hash_key").ok_or_else(|| {
        error(
            file,
            at,
            &format!("{here}.hash_key"),
            format!("{here} has no hash_key"),
            "write hash_key = \"…\" in the resource",
        )
    })?;
    let pk = match value(Some(hash_expr), vars) {
        Ok(Expression::String(s)) => key(s),
        other => {
            // An expression (a module's var.hash_key): a stand-in name.
            let why = other.err().unwrap_or_else(|| format!("`{hash_expr}`"));
            let name = stand_in_name(hash_expr).unwrap_or_else(|| "hash_key".to_string());
            KeyAttr {
                stand_in: Some(why),
                ..key(name)
            }
        }
    };
    let id = here.rsplit('.').next().unwrap_or(here);
    let name = text(attr(body, "name"), vars).unwrap_or_else(|| id.to_string());
    let mut t = Table::new(&name, pk);
    for meta in ["count", "for_each"] {
        if let Some(e) = attr(body, meta) {
            t.notes.push(format!("created only as {meta} = {e} says"));
        }
    }
    t.sk = text(attr(body, "range_key"), vars).map(key);
    let mode = text(attr(body, "billing_mode"), vars);
    let on_demand = mode
        .as_deref()
        .is_some_and(|m| m.eq_ignore_ascii_case("PAY_PER_REQUEST"));
    t.billing = if on_demand {
        Billing::OnDemand
    } else {
        Billing::Provisioned {
            read: capacity(attr(body, "read_capacity"), "read_capacity", here, vars),
            write: capacity(attr(body, "write_capacity"), "write_capacity", here, vars),
        }
    };
    if attr(body, "billing_mode").is_some() && mode.is_none() {
        t.notes
            .push("billing_mode is an expression: provisioned assumed".to_string());
    }
    for (kind, local) in [
        ("global_secondary_index", false),
        ("local_secondary_index", true),
    ] {
        for x in body.blocks().filter(|x| x.identifier() == kind) {
            t.indexes
                .extend(index(x.body(), local, &t, &key, vars, on_demand, here));
        }
    }
    for d in body.blocks().filter(|x| x.identifier() == "dynamic") {
        let what = d.labels().first().map_or("?", |l| l.as_str());
        skipped.push(format!(
            "{here}: dynamic \"{what}\" blocks (their content depends on variables)"
        ));
    }
    if let Some(ttl) = body.blocks().find(|x| x.identifier() == "ttl") {
        let enabled = matches!(
            value(attr(ttl.body(), "enabled"), vars),
            Ok(Expression::Bool(true))
        );
        if enabled {
            t.ttl_attribute = text(attr(ttl.body(), "attribute_name"), vars);
        }
    }
    Ok(t)
}

fn index(
    x: &Body,
    local: bool,
    t: &Table,
    key: &dyn Fn(String) -> KeyAttr,
    vars: &BTreeMap<String, Expression>,
    on_demand: bool,
    here: &str,
) -> Option<Index> {
    let name = text(attr(x, "name"), vars)?;
    let pk = text(attr(x, "hash_key"), vars).map_or_else(|| t.pk.clone(), key);
    let projection = match text(attr(x, "projection_type"), vars).as_deref() {
        Some("KEYS_ONLY") => Projection::KeysOnly,
        Some("INCLUDE") => Projection::Include(match value(attr(x, "non_key_attributes"), vars) {
            Ok(Expression::Array(xs)) => xs.iter().filter_map(|e| text(Some(e), vars)).collect(),
            _ => match attr(x, "non_key_attributes") {
                Some(Expression::Array(xs)) => {
                    xs.iter().filter_map(|e| text(Some(e), vars)).collect()
                }
                _ => Vec::new(),
            },
        }),
        _ => Projection::All,
    };
    let at = format!("{here}.global_secondary_index[{name}]");
    let capacity = (!local && !on_demand)
        .then(|| {
            (
                capacity(attr(x, "read_capacity"), "read_capacity", &at, vars),
                capacity(attr(x, "write_capacity"), "write_capacity", &at, vars),
            )
        })
        .filter(|(r, w)| matches!(r, Capacity::Known(..)) || matches!(w, Capacity::Known(..)));
    Some(Index {
        name,
        pk,
        sk: text(attr(x, "range_key"), vars).map(key),
        projection,
        local,
        capacity,
    })
}

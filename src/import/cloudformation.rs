//! `keyheat import cloudformation TEMPLATE`: the DynamoDB tables of a
//! CloudFormation template, JSON or YAML (short-form tags such as `!Ref`
//! read as their long form): `AWS::DynamoDB::Table` (`KeySchema`,
//! `AttributeDefinitions`, `BillingMode`, `ProvisionedThroughput`,
//! `GlobalSecondaryIndexes`, `LocalSecondaryIndexes`,
//! `TimeToLiveSpecification`), `AWS::DynamoDB::GlobalTable` (its write
//! capacity auto-scaling settings and the first replica's read settings)
//! and `AWS::Serverless::SimpleTable`. A `Ref` to a template parameter
//! takes the parameter's `Default`; any other expression is a placeholder.
//! `Fn::ForEach` (the `AWS::LanguageExtensions` transform) is expanded, and
//! a Serverless Framework `serverless.yml` is read by its `resources:
//! Resources:`.

use super::dynamodb::{self, Billing, Capacity, Index, KeyAttr, Source, Table};
use super::{error, position, position_of};
use crate::error::Result;
use serde_json::{Map, Value};

/// The draft of a template's text; `file` names it.
///
/// # Errors
/// A located error when the text is neither JSON nor YAML, has no
/// `Resources`, holds no DynamoDB table, or a table has no hash key.
pub fn draft(text: &str, file: &str) -> Result<super::draft::Draft> {
    let doc = parse(text, file)?;
    let params = doc
        .get("Parameters")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    // A Serverless Framework serverless.yml keeps its CloudFormation
    // resources under `resources: Resources:`.
    let Some(resources) = doc
        .get("Resources")
        .or_else(|| doc.get("resources").and_then(|r| r.get("Resources")))
        .and_then(Value::as_object)
    else {
        return Err(error(
            file,
            (1, 1),
            "Resources",
            "not a CloudFormation template: there is no `Resources` section",
            "import a template (JSON or YAML) whose Resources hold an AWS::DynamoDB::Table",
        ));
    };
    let resources = expand_for_each(resources, &params);
    let mut tables = Vec::new();
    let mut skipped = Vec::new();
    for (id, r) in &resources {
        let kind = r.get("Type").and_then(Value::as_str).unwrap_or("");
        let props = r.get("Properties").and_then(Value::as_object);
        let empty = Map::new();
        let props = props.unwrap_or(&empty);
        let at = position_of(text, id);
        let t = match kind {
            "AWS::DynamoDB::Table" => table(id, props, &params, false, at, file)?,
            "AWS::DynamoDB::GlobalTable" => table(id, props, &params, true, at, file)?,
            "AWS::Serverless::SimpleTable" => simple_table(id, props, &params),
            k if k.starts_with("AWS::DynamoDB::") => {
                skipped.push(format!("resource {id} ({k})"));
                continue;
            }
            _ => continue,
        };
        tables.push(t);
    }
    if tables.is_empty() {
        return Err(error(
            file,
            position_of(text, "Resources"),
            "Resources",
            "the template has no AWS::DynamoDB::Table, AWS::DynamoDB::GlobalTable or AWS::Serverless::SimpleTable resource",
            "import the template that defines the table",
        ));
    }
    let title = doc
        .get("Description")
        .and_then(Value::as_str)
        .map(|d| d.split([':', '.']).next().unwrap_or(d).trim().to_string())
        .filter(|d| !d.is_empty() && d.len() <= 80);
    let src = Source {
        kind: "cloudformation",
        file: file.to_string(),
        title: title.or_else(|| tables.first().map(|t| t.name.clone())),
        read: vec![
            "CloudFormation template; a Ref to a parameter takes the parameter's Default."
                .to_string(),
        ],
        skipped,
    };
    Ok(dynamodb::draft(&src, &tables))
}

/// `Fn::ForEach::Name: [Identifier, [values…], { "Key${Identifier}": … }]`
/// (the `AWS::LanguageExtensions` transform) expanded: one copy of the
/// template per value, with `${Identifier}` / `&{Identifier}` replaced in keys
/// and strings and `{"Ref": Identifier}` replaced by the value. The values
/// may be a `Ref` to a `CommaDelimitedList` parameter with a `Default`.
/// Other resources are kept as they are.
fn expand_for_each(
    resources: &Map<String, Value>,
    params: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (id, r) in resources {
        let Some(args) = id
            .starts_with("Fn::ForEach::")
            .then(|| r.as_array())
            .flatten()
            .filter(|a| a.len() == 3)
        else {
            out.insert(id.clone(), r.clone());
            continue;
        };
        let (Some(name), Some(template)) = (args[0].as_str(), args[2].as_object()) else {
            continue;
        };
        let values: Vec<String> = match &args[1] {
            Value::Array(xs) => xs.iter().filter_map(scalar_text).collect(),
            Value::Object(o) => o
                .get("Ref")
                .and_then(Value::as_str)
                .and_then(|p| params.get(p))
                .and_then(|p| p.get("Default"))
                .and_then(|d| match d {
                    Value::String(s) => Some(s.split(',').map(|x| x.trim().to_string()).collect()),
                    Value::Array(xs) => Some(xs.iter().filter_map(scalar_text).collect()),
                    _ => None,
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        for v in values.iter().take(MAX_FOR_EACH) {
            let copy = substitute(&Value::Object(template.clone()), name, v);
            if let Value::Object(m) = copy {
                out.extend(expand_for_each(&m, params));
            }
        }
    }
    out
}

/// Most copies one `Fn::ForEach` makes here.
const MAX_FOR_EACH: usize = 100;

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn substitute(v: &Value, name: &str, value: &str) -> Value {
    let dollar = format!("${{{name}}}");
    let amp = format!("&{{{name}}}");
    let alnum: String = value.chars().filter(char::is_ascii_alphanumeric).collect();
    let text = |s: &str| s.replace(&dollar, value).replace(&amp, &alnum);
    match v {
        Value::String(s) => Value::String(text(s)),
        Value::Array(xs) => Value::Array(xs.iter().map(|x| substitute(x, name, value)).collect()),
        Value::Object(o) if o.len() == 1 && o.get("Ref").and_then(Value::as_str) == Some(name) => {
            Value::String(value.to_string())
        }
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (text(k), substitute(x, name, value)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The template as JSON values (YAML converted; `!Tag x` → `{"Fn::Tag": x}`,
/// `!Ref x` → `{"Ref": x}`, `!GetAtt a.b` → `{"Fn::GetAtt": ["a", "b"]}`).
/// A JSON template's first character (named, so that brace-counting tools
/// do not read it as a code block).
const JSON_OBJECT: char = '{';

fn parse(text: &str, file: &str) -> Result<Value> {
    if text.trim_start().starts_with(JSON_OBJECT) {
        return serde_json::from_str(text).map_err(|e| {
            error(
                file,
                (e.line().max(1), e.column().max(1)),
                "cloudformation",
                format!("not JSON: {e}"),
                "import a valid CloudFormation template (JSON or YAML)",
            )
        });
    }
    let yaml: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        let at = e.location().map_or((1, 1), |l| position(text, l.index()));
        error(
            file,
            at,
            "cloudformation",
            format!("not YAML: {e}"),
            "import a valid CloudFormation template (JSON or YAML)",
        )
    })?;
    Ok(to_json(yaml))
}

fn to_json(v: serde_norway::Value) -> Value {
    use serde_norway::Value as Y;
    match v {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            n.as_f64()
                .and_then(serde_json::Number::from_f64)
                .map_or(Value::Null, |x| {
                    n.as_i64()
                        .map_or(Value::Number(x), |i| Value::Number(i.into()))
                })
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(xs) => Value::Array(xs.into_iter().map(to_json).collect()),
        Y::Mapping(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let k = match k {
                        Y::String(s) => s,
                        other => serde_norway::to_string(&other)
                            .unwrap_or_default()
                            .trim()
                            .to_string(),
                    };
                    (k, to_json(v))
                })
                .collect(),
        ),
        Y::Tagged(t) => {
            let tag = t.tag.to_string();
            let name = tag.trim_start_matches('!');
            let value = to_json(t.value);
            let (key, value) = match (name, value) {
                ("Ref", v) => ("Ref".to_string(), v),
                ("GetAtt", Value::String(s)) => (
                    "Fn::GetAtt".to_string(),
                    Value::Array(
                        s.splitn(2, '.')
                            .map(|p| Value::String(p.to_string()))
                            .collect(),
                    ),
                ),
                (n, v) => (format!("Fn::{n}"), v),
            };
            let mut m = Map::new();
            m.insert(key, value);
            Value::Object(m)
        }
    }
}

/// A property's value: a literal, a `Ref` to a parameter with a `Default`,
/// or `Err(what it is)`.
fn resolve(
    v: Option<&Value>,
    params: &Map<String, Value>,
) -> std::result::Result<(Value, String), String> {
    let Some(v) = v else {
        return Err("not given".to_string());
    };
    match v {
        Value::String(_) | Value::Number(_) | Value::Bool(_) => Ok((v.clone(), String::new())),
        Value::Object(m) if m.len() == 1 && m.contains_key("Ref") => {
            let name = m["Ref"].as_str().unwrap_or("?");
            match params.get(name).and_then(|p| p.get("Default")) {
                Some(d @ (Value::String(_) | Value::Number(_))) => {
                    Ok((d.clone(), format!("parameter {name}'s Default")))
                }
                _ => Err(format!("Ref {name}, a parameter without a Default")),
            }
        }
        Value::Object(m) => Err(format!(
            "an expression ({})",
            m.keys().next().map_or("?", String::as_str)
        )),
        _ => Err("not a value".to_string()),
    }
}

/// How a `${…}` variable starts (named, so that brace-counting tools do not
/// read it as a code block).
const VARIABLE_START: &str = "${";

/// `TableName`, or the logical id when the name is not written out (an
/// expression, or a `${…}` variable such as Serverless's
/// `${self:custom.tableName}`).
fn table_name(p: &Map<String, Value>, id: &str, params: &Map<String, Value>) -> String {
    text_of(p.get("TableName"), params)
        .filter(|n| !n.contains(VARIABLE_START))
        .unwrap_or_else(|| id.to_string())
}

fn text_of(v: Option<&Value>, params: &Map<String, Value>) -> Option<String> {
    match resolve(v, params) {
        Ok((Value::String(s), _)) => Some(s),
        Ok((Value::Number(n), _)) => Some(n.to_string()),
        _ => None,
    }
}

/// A parameter's name when `v` is `Ref` to it (a name to use when the
/// parameter has no default).
fn ref_name(v: Option<&Value>) -> Option<String> {
    v?.get("Ref")?.as_str().map(String::from)
}

fn capacity(v: Option<&Value>, what: &str, params: &Map<String, Value>, at: &str) -> Capacity {
    match resolve(v, params) {
        Ok((x, from)) => {
            let n = x
                .as_f64()
                .or_else(|| x.as_str().and_then(|s| s.trim().parse().ok()));
            match n {
                Some(n) if n >= 0.0 => {
                    let from = if from.is_empty() {
                        String::new()
                    } else {
                        format!(" ({from})")
                    };
                    Capacity::Known(n, format!("{at}.{what}{from}"))
                }
                _ => Capacity::Unknown(format!("{at}.{what} is not a number")),
            }
        }
        Err(why) => Capacity::Unknown(format!("{at}.{what} is {why}")),
    }
}

/// An attribute name, and why it is a stand-in when it is the name of a
/// parameter without a default.
type Named = (String, Option<String>);

fn attribute_name(v: Option<&Value>, params: &Map<String, Value>) -> Option<Named> {
    text_of(v, params).map(|n| (n, None)).or_else(|| {
        ref_name(v).map(|p| {
            (
                p.clone(),
                Some(format!("Ref {p}, a parameter without a Default")),
            )
        })
    })
}

/// `KeySchema` → (hash, range) attribute names (a name from a parameter
/// without a default is the parameter's name, a stand-in).
fn key_schema(v: Option<&Value>, params: &Map<String, Value>) -> (Option<Named>, Option<Named>) {
    let mut hash = None;
    let mut range = None;
    for k in v.and_then(Value::as_array).into_iter().flatten() {
        let name = attribute_name(k.get("AttributeName"), params);
        match k.get("KeyType").and_then(Value::as_str) {
            Some("HASH") => hash = name,
            Some("RANGE") => range = name,
            _ => {}
        }
    }
    (hash, range)
}

fn attr((name, stand_in): &Named, defs: Option<&Value>, params: &Map<String, Value>) -> KeyAttr {
    let kind = defs
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|d| attribute_name(d.get("AttributeName"), params).is_some_and(|(n, _)| &n == name))
        .and_then(|d| text_of(d.get("AttributeType"), params))
        .unwrap_or_default();
    KeyAttr {
        stand_in: stand_in.clone(),
        ..KeyAttr::named(name, &kind)
    }
}

fn table(
    id: &str,
    p: &Map<String, Value>,
    params: &Map<String, Value>,
    global: bool,
    at: (usize, usize),
    file: &str,
) -> Result<Table> {
    let name = table_name(p, id, params);
    let defs = p.get("AttributeDefinitions");
    let (hash, range) = key_schema(p.get("KeySchema"), params);
    let hash = hash.ok_or_else(|| {
        error(
            file,
            at,
            &format!("Resources.{id}.Properties.KeySchema"),
            format!("table {id} has no HASH key in KeySchema"),
            "give the table a KeySchema with a HASH key",
        )
    })?;
    let mut t = Table::new(&name, attr(&hash, defs, params));
    t.sk = range.map(|r| attr(&r, defs, params));
    let on_demand = text_of(p.get("BillingMode"), params)
        .is_some_and(|m| m.eq_ignore_ascii_case("PAY_PER_REQUEST"));
    t.billing = if on_demand {
        Billing::OnDemand
    } else if global {
        global_table_billing(p, params, id)
    } else {
        let pt = p.get("ProvisionedThroughput");
        let at = format!("{id}.ProvisionedThroughput");
        Billing::Provisioned {
            read: capacity(
                pt.and_then(|x| x.get("ReadCapacityUnits")),
                "ReadCapacityUnits",
                params,
                &at,
            ),
            write: capacity(
                pt.and_then(|x| x.get("WriteCapacityUnits")),
                "WriteCapacityUnits",
                params,
                &at,
            ),
        }
    };
    for (key, local) in [
        ("GlobalSecondaryIndexes", false),
        ("LocalSecondaryIndexes", true),
    ] {
        for x in p.get(key).and_then(Value::as_array).into_iter().flatten() {
            t.indexes
                .extend(index(x, local, &t, defs, params, on_demand));
        }
    }
    let ttl = p.get("TimeToLiveSpecification");
    let enabled = ttl.and_then(|x| x.get("Enabled")).is_some_and(|e| {
        e.as_bool() == Some(true) || e.as_str().is_some_and(|s| s.eq_ignore_ascii_case("true"))
    });
    if enabled {
        t.ttl_attribute = text_of(ttl.and_then(|x| x.get("AttributeName")), params);
    }
    Ok(t)
}

/// A global table: write capacity from `WriteProvisionedThroughputSettings`
/// (auto-scaling: its `MinCapacity`), read capacity from the first
/// replica's `ReadProvisionedThroughputSettings`.
fn global_table_billing(p: &Map<String, Value>, params: &Map<String, Value>, id: &str) -> Billing {
    let write = p.get("WriteProvisionedThroughputSettings");
    let read = p
        .get("Replicas")
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(|r| r.get("ReadProvisionedThroughputSettings"));
    let setting = |v: Option<&Value>, units_key: &str, scaling_key: &str, what: &str| -> Capacity {
        if let Some(units) = v.and_then(|v| v.get(units_key)) {
            return capacity(Some(units), units_key, params, &format!("{id}.{what}"));
        }
        let scaling = v.and_then(|v| v.get(scaling_key));
        match capacity(
            scaling.and_then(|s| s.get("MinCapacity")),
            "MinCapacity",
            params,
            &format!("{id}.{what}.{scaling_key}"),
        ) {
            Capacity::Known(x, from) => {
                let max = text_of(scaling.and_then(|s| s.get("MaxCapacity")), params)
                    .unwrap_or_else(|| "?".into());
                Capacity::Known(x, format!("{from}; auto-scaling up to {max}: keyheat holds capacity fixed at the minimum"))
            }
            unknown => unknown,
        }
    };
    Billing::Provisioned {
        read: setting(
            read,
            "ReadCapacityUnits",
            "ReadCapacityAutoScalingSettings",
            "Replicas[0].ReadProvisionedThroughputSettings",
        ),
        write: setting(
            write,
            "WriteCapacityUnits",
            "WriteCapacityAutoScalingSettings",
            "WriteProvisionedThroughputSettings",
        ),
    }
}

fn index(
    x: &Value,
    local: bool,
    t: &Table,
    defs: Option<&Value>,
    params: &Map<String, Value>,
    on_demand: bool,
) -> Option<Index> {
    let name = text_of(x.get("IndexName"), params)?;
    let (hash, range) = key_schema(x.get("KeySchema"), params);
    let pk = hash.map_or_else(|| t.pk.clone(), |h| attr(&h, defs, params));
    let capacity = (!local && !on_demand).then(|| {
        let pt = x.get("ProvisionedThroughput");
        let at = format!("{}.{name}.ProvisionedThroughput", t.name);
        (
            capacity(
                pt.and_then(|p| p.get("ReadCapacityUnits")),
                "ReadCapacityUnits",
                params,
                &at,
            ),
            capacity(
                pt.and_then(|p| p.get("WriteCapacityUnits")),
                "WriteCapacityUnits",
                params,
                &at,
            ),
        )
    });
    Some(Index {
        name,
        pk,
        sk: range.map(|r| attr(&r, defs, params)),
        projection: super::workbench::projection(x.get("Projection")),
        local,
        capacity: capacity
            .filter(|(r, w)| matches!(r, Capacity::Known(..)) || matches!(w, Capacity::Known(..))),
    })
}

/// `AWS::Serverless::SimpleTable`: `PrimaryKey` (default `id`, String),
/// `ProvisionedThroughput` (on demand without it).
fn simple_table(id: &str, p: &Map<String, Value>, params: &Map<String, Value>) -> Table {
    let name = table_name(p, id, params);
    let key = p.get("PrimaryKey");
    let pk = KeyAttr::named(
        &text_of(key.and_then(|k| k.get("Name")), params).unwrap_or_else(|| "id".to_string()),
        match text_of(key.and_then(|k| k.get("Type")), params).as_deref() {
            Some("Number") => "N",
            Some("Binary") => "B",
            _ => "S",
        },
    );
    let mut t = Table::new(&name, pk);
    t.billing = match p.get("ProvisionedThroughput") {
        None => Billing::OnDemand,
        Some(pt) => {
            let at = format!("{id}.ProvisionedThroughput");
            Billing::Provisioned {
                read: capacity(
                    pt.get("ReadCapacityUnits"),
                    "ReadCapacityUnits",
                    params,
                    &at,
                ),
                write: capacity(
                    pt.get("WriteCapacityUnits"),
                    "WriteCapacityUnits",
                    params,
                    &at,
                ),
            }
        }
    };
    t
}

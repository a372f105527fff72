//! `keyheat import workbench MODEL.json`: a NoSQL Workbench for Amazon
//! DynamoDB data model (the JSON it exports: `ModelName`, `DataModel` with
//! each table's `KeyAttributes`, `GlobalSecondaryIndexes`, `TableData`,
//! `TableFacets`, `BillingMode`, `ProvisionedCapacitySettings`).

use super::dynamodb::{self, Billing, Capacity, Index, KeyAttr, Projection, Source, Table};
use super::{error, position_of};
use crate::error::Result;
use serde_json::{Map, Value};

/// The draft of a Workbench model's text; `file` names it.
///
/// # Errors
/// A located error when the text is not JSON, has no `DataModel` array of
/// tables, or a table lacks `TableName` or a partition key.
pub fn draft(text: &str, file: &str) -> Result<super::draft::Draft> {
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        error(
            file,
            (e.line().max(1), e.column().max(1)),
            "workbench",
            format!("not JSON: {e}"),
            "export the data model from NoSQL Workbench (Data modeler → Export model) and import that file",
        )
    })?;
    let model = doc.as_object();
    let Some(tables) = model
        .and_then(|m| m.get("DataModel"))
        .and_then(Value::as_array)
    else {
        return Err(error(
            file,
            (1, 1),
            "DataModel",
            "not a NoSQL Workbench data model: there is no `DataModel` array of tables",
            "export the data model from NoSQL Workbench (a JSON file with `ModelName` and `DataModel`)",
        ));
    };
    if tables.is_empty() {
        return Err(error(
            file,
            position_of(text, "\"DataModel\""),
            "DataModel",
            "the data model has no tables",
            "add a table to the model in NoSQL Workbench and export it again",
        ));
    }
    let tables = tables
        .iter()
        .enumerate()
        .map(|(i, t)| table(t, i, text, file))
        .collect::<Result<Vec<_>>>()?;
    let title = model
        .and_then(|m| m.get("ModelName"))
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(String::from);
    let samples: usize = tables.iter().map(|t| t.samples.len()).sum();
    let src = Source {
        kind: "workbench",
        file: file.to_string(),
        title: title.clone(),
        read: vec![format!(
            "NoSQL Workbench model {}; item sizes from {samples} sample item(s) (TableData and facets).",
            title.as_deref().map_or("(unnamed)".to_string(), |t| format!("\"{t}\""))
        )],
        skipped: vec![],
    };
    Ok(dynamodb::draft(&src, &tables))
}

fn key_attr(v: Option<&Value>) -> Option<KeyAttr> {
    let v = v?.as_object()?;
    let name = v.get("AttributeName")?.as_str()?.to_string();
    let kind = v
        .get("AttributeType")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    (!name.is_empty()).then_some(KeyAttr::named(&name, &kind))
}

fn table(t: &Value, i: usize, text: &str, file: &str) -> Result<Table> {
    let key = format!("DataModel[{i}]");
    let Some(t) = t.as_object() else {
        return Err(error(
            file,
            position_of(text, "\"DataModel\""),
            &key,
            "a table of the model is not an object",
            "export the data model from NoSQL Workbench again",
        ));
    };
    let name = t
        .get("TableName")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| {
            error(
                file,
                position_of(text, "\"DataModel\""),
                &format!("{key}.TableName"),
                "a table has no TableName",
                "name every table of the model",
            )
        })?;
    let at = position_of(text, &format!("\"{name}\""));
    let keys = t.get("KeyAttributes");
    let pk = key_attr(keys.and_then(|k| k.get("PartitionKey"))).ok_or_else(|| {
        error(
            file,
            at,
            &format!("{key}.KeyAttributes.PartitionKey"),
            format!("table {name} has no partition key (KeyAttributes.PartitionKey.AttributeName)"),
            "give the table a partition key in NoSQL Workbench and export the model again",
        )
    })?;
    let mut table = Table::new(name, pk);
    table.sk = key_attr(keys.and_then(|k| k.get("SortKey")));
    table.billing = billing(t, name);
    for x in t
        .get("GlobalSecondaryIndexes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        table.indexes.extend(index(x, false, &table));
    }
    for x in t
        .get("LocalSecondaryIndexes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        table.indexes.extend(index(x, true, &table));
    }
    let items = |v: Option<&Value>| -> Vec<Map<String, Value>> {
        v.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|i| i.as_object().cloned())
            .collect()
    };
    table.samples = items(t.get("TableData"));
    let facets: Vec<&Map<String, Value>> = t
        .get("TableFacets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    for f in &facets {
        table.samples.extend(items(f.get("TableData")));
    }
    if !facets.is_empty() {
        let names: Vec<&str> = facets
            .iter()
            .filter_map(|f| f.get("FacetName").and_then(Value::as_str))
            .collect();
        table.notes.push(format!(
            "facets (entity types sharing the table) {}",
            names.join(", ")
        ));
    }
    Ok(table)
}

fn capacity(v: Option<&Value>, what: &str, table: &str) -> Capacity {
    match v.and_then(Value::as_f64) {
        Some(x) if x >= 0.0 => Capacity::Known(x, format!("{table}: ProvisionedThroughput.{what}")),
        _ => Capacity::Unknown(format!("the model gives no {what}")),
    }
}

fn billing(t: &Map<String, Value>, name: &str) -> Billing {
    let mode = t.get("BillingMode").and_then(Value::as_str).unwrap_or("");
    if mode.eq_ignore_ascii_case("PAY_PER_REQUEST") {
        return Billing::OnDemand;
    }
    let p = t
        .get("ProvisionedCapacitySettings")
        .and_then(|s| s.get("ProvisionedThroughput"));
    Billing::Provisioned {
        read: capacity(
            p.and_then(|p| p.get("ReadCapacityUnits")),
            "ReadCapacityUnits",
            name,
        ),
        write: capacity(
            p.and_then(|p| p.get("WriteCapacityUnits")),
            "WriteCapacityUnits",
            name,
        ),
    }
}

fn index(x: &Value, local: bool, table: &Table) -> Option<Index> {
    let name = x.get("IndexName")?.as_str()?.to_string();
    let keys = x.get("KeyAttributes");
    let pk = key_attr(keys.and_then(|k| k.get("PartitionKey"))).unwrap_or_else(|| table.pk.clone());
    let sk = key_attr(keys.and_then(|k| k.get("SortKey")));
    let projection = projection(x.get("Projection"));
    Some(Index {
        name,
        pk,
        sk,
        projection,
        local,
        capacity: None,
    })
}

/// `{"ProjectionType": "ALL" | "KEYS_ONLY" | "INCLUDE", "NonKeyAttributes": […]}`
/// (also CloudFormation's spelling); ALL when absent.
pub fn projection(p: Option<&Value>) -> Projection {
    let kind = p
        .and_then(|p| p.get("ProjectionType"))
        .and_then(Value::as_str)
        .unwrap_or("ALL");
    match kind.to_ascii_uppercase().as_str() {
        "KEYS_ONLY" => Projection::KeysOnly,
        "INCLUDE" => Projection::Include(
            p.and_then(|p| p.get("NonKeyAttributes"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|a| a.as_str().map(String::from))
                .collect(),
        ),
        _ => Projection::All,
    }
}

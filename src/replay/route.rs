//! Which record fields a scenario needs and where each record goes: the
//! template's entities are read from the fields of the same name (or the
//! `--map`ped ones; a scenario whose keys name one entity also finds it in
//! the log's key), and a record goes to the first access pattern with its
//! operation (else the first of its class, reads or writes), then to every
//! table and global index that pattern touches.

use crate::engine::plan::Plan;
use crate::logs::{Op, OPS};
use crate::scenario::{Operation, Scenario, TemplatePart};

/// One stream a pattern's records reach: a plan table and its stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// Index in [`Plan::tables`].
    pub table: usize,
    /// Index in that table's streams.
    pub stream: usize,
}

/// See the module docs.
#[derive(Debug, Clone)]
pub struct Routing {
    /// The fields asked of the logs, in order (`name|key`: the field, else the key).
    pub fields: Vec<String>,
    /// Entity name → position in `fields`.
    pub entities: Vec<(String, usize)>,
    /// Per op code: the access pattern its records go to.
    pub pattern_of: [Option<usize>; 9],
    /// Per access pattern: the streams its records reach.
    pub targets: Vec<Vec<Target>>,
    /// What each field reads, for the report (`customer ← key`).
    pub mapping: Vec<String>,
}

fn op_matches(op: Op, o: Operation) -> bool {
    match op {
        Op::Get => o == Operation::Get,
        Op::Query => o == Operation::Query,
        Op::Put => o == Operation::Put,
        Op::Update => o == Operation::Update,
        Op::Delete => o == Operation::Delete,
        Op::Append => o == Operation::Append,
        Op::Read | Op::Write | Op::Any => false,
    }
}

/// The pattern records of `op` go to (see the module docs).
fn pattern_for(scenario: &Scenario, op: Op) -> Option<usize> {
    let ps = &scenario.access_patterns;
    let exact = ps.iter().position(|p| op_matches(op, p.operation));
    let class = || match op.is_write() {
        Some(w) => ps.iter().position(|p| p.operation.is_write() == w),
        None => (!ps.is_empty()).then_some(0),
    };
    exact.or_else(class)
}

impl Routing {
    /// Routes `scenario`'s records through `plan` (built from it), with the
    /// user's `--map ENTITY=FIELD` pairs.
    ///
    /// # Errors
    /// A usage error for a `--map` entity the scenario does not declare.
    pub fn new(
        scenario: &Scenario,
        plan: &Plan,
        map: &[(String, String)],
    ) -> crate::Result<Routing> {
        for (e, _) in map {
            if !scenario.entities.iter().any(|x| &x.name == e) {
                let names: Vec<&str> = scenario.entities.iter().map(|x| x.name.as_str()).collect();
                return Err(crate::Error::usage(format!(
                    "--map {e}=…: the scenario has no entity `{e}` (entities: {})",
                    names.join(", ")
                )));
            }
        }
        let mut targets: Vec<Vec<Target>> = vec![Vec::new(); scenario.access_patterns.len()];
        for (ti, tp) in plan.tables.iter().enumerate() {
            for (si, s) in tp.streams.iter().enumerate() {
                let original = if tp.global_index_of.is_none() {
                    Some(s.pattern)
                } else {
                    // A global index's streams are renamed copies of the base's patterns.
                    scenario.access_patterns.iter().position(|p| {
                        s.name == p.name
                            || s.name == format!("{} (index write)", p.name)
                            || s.name == format!("{} (index delete of the old entry)", p.name)
                    })
                };
                if let Some(pi) = original.filter(|&pi| pi < targets.len()) {
                    targets[pi].push(Target {
                        table: ti,
                        stream: si,
                    });
                }
            }
        }
        let mut used: Vec<String> = Vec::new();
        for tp in &plan.tables {
            for part in &tp.keys.template {
                if let TemplatePart::Entity(name) = part {
                    if !used.contains(name) {
                        used.push(name.clone());
                    }
                }
            }
        }
        let single = used.len() == 1;
        let mut fields = Vec::new();
        let mut entities = Vec::new();
        let mut mapping = Vec::new();
        for name in &used {
            let field = match map.iter().find(|(e, _)| e == name) {
                Some((_, f)) => f.clone(),
                None if single && name != "key" => format!("{name}|key"),
                None => name.clone(),
            };
            mapping.push(match field.split_once('|') {
                Some((f, _)) => format!("{name} ← the field `{f}`, else the log's key"),
                None if field == "key" => format!("{name} ← the log's key"),
                None => format!("{name} ← the field `{field}`"),
            });
            entities.push((name.clone(), fields.len()));
            fields.push(field);
        }
        let mut pattern_of = [None; 9];
        for op in OPS {
            pattern_of[op as usize] = pattern_for(scenario, op);
        }
        Ok(Routing {
            fields,
            entities,
            pattern_of,
            targets,
            mapping,
        })
    }

    /// The position in [`Routing::fields`] of entity `name`.
    pub fn field_of(&self, name: &str) -> Option<usize> {
        self.entities.iter().find(|(n, _)| n == name).map(|x| x.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_go_to_their_pattern_or_class() {
        let text = r#"
schema_version = 1
name = "r"
[store]
kind = "generic"
[[entity]]
name = "user"
count = 10
[[table]]
name = "t"
partition_key = "U#{user}"
item_size = "1KB"
[[access_pattern]]
name = "read"
table = "t"
operation = "get"
rate = 1
[[access_pattern]]
name = "write"
table = "t"
operation = "put"
rate = 1
"#;
        let s = crate::Scenario::from_str_at(text, "r.toml").unwrap();
        let model = crate::store::Model::new(&s.store, "r.toml").unwrap();
        let plan = crate::engine::plan::build(&s, model.store());
        let r = Routing::new(&s, &plan, &[]).unwrap();
        assert_eq!(r.fields, vec!["user|key".to_string()]);
        assert_eq!(r.pattern_of[Op::Get as usize], Some(0));
        assert_eq!(
            r.pattern_of[Op::Query as usize],
            Some(0),
            "a query goes to the first read"
        );
        assert_eq!(
            r.pattern_of[Op::Delete as usize],
            Some(1),
            "a delete to the first write"
        );
        assert_eq!(r.pattern_of[Op::Any as usize], Some(0));
        let r = Routing::new(&s, &plan, &[("user".into(), "uid".into())]).unwrap();
        assert_eq!(r.fields, vec!["uid".to_string()]);
        assert!(Routing::new(&s, &plan, &[("nobody".into(), "x".into())]).is_err());
    }
}

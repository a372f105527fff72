//! Key templates: `"CUSTOMER#{customer}#{bucket}"` → [`TemplatePart`]s.
//!
//! `{bucket}`, `{shard}`, `{time}` and `{id}` are special placeholders; any
//! other `{name}` must be a declared entity. Braces must balance; there is no
//! escape for a literal brace. Adjacent literal text is merged into one
//! [`TemplatePart::Literal`].

use super::model::TemplatePart;
use super::suggest::{did_you_mean, list};

/// The special placeholders, which are not entity names.
pub const SPECIAL_PLACEHOLDERS: [&str; 4] = ["bucket", "shard", "time", "id"];

/// Why a template could not be parsed. `offset` is the byte offset in the
/// template text of the offending brace or placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// Byte offset in the template text.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub fix: String,
}

/// Parses `text`, resolving placeholders against the declared `entities`.
///
/// # Errors
/// [`TemplateError`] for an empty template, unbalanced braces, an empty
/// placeholder `{}`, or a placeholder that is neither special nor a declared
/// entity (with a "did you mean" over the entities and special names).
///
/// ```
/// use keyheat::scenario::template::parse_template;
/// use keyheat::scenario::TemplatePart::*;
/// let parts = parse_template("CUSTOMER#{customer}#{bucket}", &["customer"]).unwrap();
/// assert_eq!(
///     parts,
///     vec![Literal("CUSTOMER#".into()), Entity("customer".into()), Literal("#".into()), Bucket]
/// );
/// assert!(parse_template("C#{custmer}", &["customer"]).is_err());
/// assert!(parse_template("C#{customer", &["customer"]).is_err());
/// ```
/// `{{` and `}}` outside a placeholder stand for a literal `{` / `}`, so a
/// Redis hash tag is written `"cart:{{{user}}}"` → `cart:{<user id>}`.
pub fn parse_template(text: &str, entities: &[&str]) -> Result<Vec<TemplatePart>, TemplateError> {
    if text.is_empty() {
        return Err(TemplateError {
            offset: 0,
            message: "key template is empty".into(),
            fix: "write a template such as \"CUSTOMER#{customer}\"".into(),
        });
    }
    let mut parts: Vec<TemplatePart> = Vec::new();
    let mut literal = String::new();
    let mut open: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        // `{{` and `}}` outside a placeholder are a literal brace (Redis hash tags).
        if open.is_none() && (c == '{' || c == '}') && chars.peek().is_some_and(|&(_, n)| n == c) {
            chars.next();
            literal.push(c);
            continue;
        }
        match (c, open) {
            ('{', Some(_)) => {
                return Err(TemplateError {
                    offset: i,
                    message: format!("unbalanced braces in template `{text}`: a `{{` opens inside another placeholder"),
                    fix: "close each placeholder, e.g. \"A#{customer}#{order}\"".into(),
                })
            }
            ('{', None) => open = Some(i),
            ('}', None) => {
                return Err(TemplateError {
                    offset: i,
                    message: format!("unbalanced braces in template `{text}`: `}}` has no matching `{{`"),
                    fix: "remove the `}` or open the placeholder with `{`".into(),
                })
            }
            ('}', Some(start)) => {
                let name = &text[start + 1..i];
                let part = placeholder(text, name, start, entities)?;
                if !literal.is_empty() {
                    parts.push(TemplatePart::Literal(std::mem::take(&mut literal)));
                }
                parts.push(part);
                open = None;
            }
            (c, None) => literal.push(c),
            (_, Some(_)) => {}
        }
    }
    if let Some(start) = open {
        return Err(TemplateError {
            offset: start,
            message: format!("unbalanced braces in template `{text}`: `{{` is never closed"),
            fix: "close the placeholder with `}`".into(),
        });
    }
    if !literal.is_empty() {
        parts.push(TemplatePart::Literal(literal));
    }
    Ok(parts)
}

fn placeholder(
    text: &str,
    name: &str,
    offset: usize,
    entities: &[&str],
) -> Result<TemplatePart, TemplateError> {
    match name {
        "bucket" => return Ok(TemplatePart::Bucket),
        "shard" => return Ok(TemplatePart::Shard),
        "time" => return Ok(TemplatePart::Time),
        "id" => return Ok(TemplatePart::Id),
        _ => {}
    }
    if entities.contains(&name) {
        return Ok(TemplatePart::Entity(name.to_string()));
    }
    if name.is_empty() {
        return Err(TemplateError {
            offset,
            message: format!("template `{text}` has an empty placeholder `{{}}`"),
            fix: format!(
                "name an entity or a special placeholder inside the braces: {}",
                list(entities.iter().copied().chain(SPECIAL_PLACEHOLDERS))
            ),
        });
    }
    if let Some(("time" | "bucket", format)) = name.split_once(':') {
        // A date format in the braces (`{time:day}`, `{bucket:yyyyMMdd}`):
        // keyheat buckets by the table's `bucket`, not by a format.
        return Err(TemplateError {
            offset,
            message: format!(
                "template `{text}` names `{{{name}}}`: placeholders take no format (`:{format}`); a key is bucketed by time with the table's `bucket`, which fills `{{bucket}}`"
            ),
            fix: "write {bucket} in the key and set bucket = \"1d\" (or \"1h\", \"7d\", …) on the [[table]]; {time} alone is the write time, as in a sort key".to_string(),
        });
    }
    if name.contains(':') {
        // A MongoDB shard-key document (`{ deviceId: "hashed" }`,
        // `{ tenantId: 1, ts: 1 }`) or a JSON object in the braces.
        return Err(TemplateError {
            offset,
            message: format!(
                "template `{text}` holds `{{{name}}}`, a document of fields and values (a MongoDB shard key?): a key template names entities in braces, one placeholder each"
            ),
            fix: "write each field as its entity's placeholder: { deviceId: \"hashed\" } is partition_key = \"{device}\" with shard_key = \"hashed\" under [store]; { tenantId: 1, ts: 1 } is partition_key = \"{tenant}#{time}\" with shard_key = \"ranged\"".to_string(),
        });
    }
    let candidates = entities.iter().copied().chain(SPECIAL_PLACEHOLDERS);
    let (hint, fix) = match did_you_mean(name, candidates) {
        Some(close) => (
            format!("; did you mean `{{{close}}}`?"),
            format!("write {{{close}}}, or declare an [[entity]] named \"{name}\""),
        ),
        None => (
            String::new(),
            format!(
                "declare an [[entity]] named \"{name}\", or use one of {}",
                list(entities.iter().copied().chain(SPECIAL_PLACEHOLDERS))
            ),
        ),
    };
    Err(TemplateError {
        offset,
        message: format!(
            "template `{text}` names `{{{name}}}`, which is not a declared entity (declared: {}){hint}",
            list(entities.iter().copied())
        ),
        fix,
    })
}

/// Merges adjacent literals and appends `parts` of `suffix` to `parts`.
pub(crate) fn append(parts: &mut Vec<TemplatePart>, suffix: &[TemplatePart]) {
    for part in suffix {
        match (parts.last_mut(), part) {
            (Some(TemplatePart::Literal(prev)), TemplatePart::Literal(next)) => prev.push_str(next),
            _ => parts.push(part.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubled_braces_are_literal_braces() {
        let parts = parse_template("cart:{{{user}}}", &["user"]).unwrap();
        assert_eq!(
            parts,
            vec![
                TemplatePart::Literal("cart:{".into()),
                TemplatePart::Entity("user".into()),
                TemplatePart::Literal("}".into()),
            ]
        );
    }
    use TemplatePart::*;

    #[test]
    fn all_placeholder_kinds() {
        let parts = parse_template("{shard}:{time}:{id}:{c}x", &["c"]).unwrap();
        assert_eq!(
            parts,
            vec![
                Shard,
                Literal(":".into()),
                Time,
                Literal(":".into()),
                Id,
                Literal(":".into()),
                Entity("c".into()),
                Literal("x".into())
            ]
        );
        assert_eq!(
            parse_template("STATIC", &[]).unwrap(),
            vec![Literal("STATIC".into())]
        );
    }

    #[test]
    fn errors_carry_offsets() {
        let e = parse_template("A#{b}#{c", &["b", "c"]).unwrap_err();
        assert_eq!(e.offset, 6);
        assert_eq!(
            e.message,
            "unbalanced braces in template `A#{b}#{c`: `{` is never closed"
        );
        let e = parse_template("A}", &[]).unwrap_err();
        assert_eq!(e.offset, 1);
        let e = parse_template("A{b{c}}", &["b"]).unwrap_err();
        assert_eq!(e.offset, 3);
        let e = parse_template("A#{}", &["b"]).unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(parse_template("", &[]).is_err());
    }

    #[test]
    fn undeclared_entity_suggests() {
        let e = parse_template("C#{custmer}", &["customer", "order"]).unwrap_err();
        assert_eq!(e.offset, 2);
        assert_eq!(
            e.message,
            "template `C#{custmer}` names `{custmer}`, which is not a declared entity \
             (declared: `customer`, `order`); did you mean `{customer}`?"
        );
        assert_eq!(
            e.fix,
            "write {customer}, or declare an [[entity]] named \"custmer\""
        );
    }

    /// A date format in the braces, as a placeholder of another tool (the
    /// README's example once showed `{time:day}`): the fix is the table's
    /// `bucket`, not an entity named "time:day".
    #[test]
    fn a_time_format_points_to_the_tables_bucket() {
        for (text, name, format) in [
            ("U#{user}#{time:day}", "time:day", "day"),
            ("U#{bucket:yyyyMMdd}", "bucket:yyyyMMdd", "yyyyMMdd"),
        ] {
            let e = parse_template(text, &["user"]).unwrap_err();
            assert_eq!(
                e.message,
                format!(
                    "template `{text}` names `{{{name}}}`: placeholders take no format (`:{format}`); a key \
                     is bucketed by time with the table's `bucket`, which fills `{{bucket}}`"
                )
            );
            assert!(e
                .fix
                .starts_with("write {bucket} in the key and set bucket = \"1d\""));
        }
    }

    #[test]
    fn append_merges_literals() {
        let mut parts = vec![Literal("A#".into()), Entity("c".into())];
        append(&mut parts, &[Literal("#".into()), Shard]);
        append(&mut parts, &[Literal("#".into())]);
        append(&mut parts, &[Literal("x".into())]);
        assert_eq!(
            parts,
            vec![
                Literal("A#".into()),
                Entity("c".into()),
                Literal("#".into()),
                Shard,
                Literal("#x".into())
            ]
        );
    }
}

//! Units in scenario files: sizes → bytes, durations → seconds, rates →
//! operations per second.
//!
//! These are pure functions over the text of a TOML string value; a TOML
//! number is handled by the caller (bytes, seconds and per second
//! respectively). Signs are accepted (`"-5/s"` is −5) so that the caller can
//! report a range error ("rate must be > 0") rather than a syntax error.
//!
//! | kind | forms | examples |
//! |---|---|---|
//! | size | number of bytes, optionally followed (after an optional space) by `B`, `KB` (also `kB`) = 10³, `MB` = 10⁶, `GB` = 10⁹, `TB` = 10¹², `PB` = 10¹⁵, `KiB` = 2¹⁰, `MiB` = 2²⁰, `GiB` = 2³⁰, `TiB` = 2⁴⁰, `PiB` = 2⁵⁰ — case-sensitive | `"1.2KB"` = 1200, `"1KiB"` = 1024, `"6 MB"`, `"2PB"` |
//! | duration | seconds, or a number followed by `ms`, `s`, `m` (minutes), `h`, `d`, `w` (7 d), `mo` (30 d) or `y` (365 d) | `"10d"` = 864 000, `"1.5h"` = 5400, `"90s"` |
//! | rate | per second, or `<number>[k\|K\|M\|G]/<unit>` with unit `s`, `sec`, `second`, `m`, `min`, `minute`, `h`, `hour`, `d`, `day`, `w`, `week`, `mo`, `month` (30 d, as the `mo` duration), `y`, `year` (365 d) (plurals accepted) | `"500/s"`, `"3M/day"` = 34.72…, `"20k/min"`, `"13M/month"` = 5.015…, `"2M/y"` |
//!
//! Numbers are decimal (`1.5`, `.5`), may carry `_` digit separators
//! (`"3_000/s"`) and no exponent.

use std::fmt;

/// Size suffixes and their multipliers in bytes, as accepted (case-sensitive).
pub const SIZE_UNITS: &[(&str, f64)] = &[
    ("B", 1.0),
    ("KB", 1e3),
    ("kB", 1e3),
    ("MB", 1e6),
    ("GB", 1e9),
    ("TB", 1e12),
    ("PB", 1e15),
    ("KiB", 1024.0),
    ("MiB", 1_048_576.0),
    ("GiB", 1_073_741_824.0),
    ("TiB", 1_099_511_627_776.0),
    ("PiB", 1_125_899_906_842_624.0),
];

/// Duration suffixes and their length in seconds (`mo` = 30 days, `y` = 365 days).
pub const DURATION_UNITS: &[(&str, f64)] = &[
    ("ms", 1e-3),
    ("s", 1.0),
    ("m", 60.0),
    ("h", 3600.0),
    ("d", 86_400.0),
    ("w", 604_800.0),
    ("mo", MONTH_S),
    ("y", YEAR_S),
];

/// Seconds in the month of rates and durations (`mo`): 30 days.
pub const MONTH_S: f64 = 2_592_000.0;
/// Seconds in the year of rates and durations (`y`): 365 days.
pub const YEAR_S: f64 = 31_536_000.0;

/// Rate time units (after the `/`) and their length in seconds; a month is
/// 30 days and a year 365, as the `mo` and `y` durations.
pub const RATE_UNITS: &[(&str, f64)] = &[
    ("s", 1.0),
    ("sec", 1.0),
    ("second", 1.0),
    ("seconds", 1.0),
    ("m", 60.0),
    ("min", 60.0),
    ("minute", 60.0),
    ("minutes", 60.0),
    ("h", 3600.0),
    ("hour", 3600.0),
    ("hours", 3600.0),
    ("d", 86_400.0),
    ("day", 86_400.0),
    ("days", 86_400.0),
    ("w", 604_800.0),
    ("week", 604_800.0),
    ("weeks", 604_800.0),
    ("mo", MONTH_S),
    ("month", MONTH_S),
    ("months", MONTH_S),
    ("y", YEAR_S),
    ("year", YEAR_S),
    ("years", YEAR_S),
];

/// Count multipliers accepted before the `/` of a rate.
pub const RATE_MULTIPLIERS: &[(&str, f64)] = &[("k", 1e3), ("K", 1e3), ("M", 1e6), ("G", 1e9)];

/// Why a unit string could not be read. `Display` is one sentence naming the
/// accepted forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitError {
    message: String,
}

impl UnitError {
    fn new(message: String) -> UnitError {
        UnitError { message }
    }

    /// The message (the same text as `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UnitError {}

/// Splits `text` into a leading decimal number and the rest (leading
/// whitespace of the rest removed). `None` when there is no number.
fn split_number(text: &str) -> Option<(f64, &str)> {
    let text = text.trim();
    let end = text
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit() || c == '.' || c == '_' || (i == 0 && (c == '-' || c == '+')))
        })
        .map_or(text.len(), |(i, _)| i);
    let digits: String = text[..end].chars().filter(|&c| c != '_').collect();
    if !digits.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let value: f64 = digits.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    Some((value, text[end..].trim_start()))
}

/// Formats a unit table's names as `` `a`, `b` or `c` ``.
fn names(units: &[(&str, f64)]) -> String {
    let list: Vec<String> = units.iter().map(|(n, _)| format!("`{n}`")).collect();
    match list.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// A case-insensitive look-alike among `units`, for a hint.
fn case_hint(suffix: &str, units: &[(&str, f64)]) -> String {
    units
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(suffix))
        .map(|(n, _)| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}

fn lookup(suffix: &str, units: &[(&str, f64)]) -> Option<f64> {
    units.iter().find(|(n, _)| *n == suffix).map(|&(_, m)| m)
}

/// Parses a size into bytes.
///
/// # Errors
/// When `text` is not a number optionally followed by one of [`SIZE_UNITS`].
///
/// ```
/// use keyheat::scenario::units::parse_size;
/// assert_eq!(parse_size("1.2KB"), Ok(1200.0));
/// assert_eq!(parse_size("1KiB"), Ok(1024.0));
/// assert_eq!(parse_size("6 MB"), Ok(6e6));
/// assert_eq!(parse_size("512"), Ok(512.0));
/// assert!(parse_size("10 parsecs").is_err());
/// ```
pub fn parse_size(text: &str) -> Result<f64, UnitError> {
    let accepted = format!(
        "a size is a number of bytes, optionally followed by {} (e.g. \"1.2KB\", \"4KiB\")",
        names(SIZE_UNITS)
    );
    let Some((value, suffix)) = split_number(text) else {
        return Err(UnitError::new(format!(
            "`{text}` is not a size: {accepted}"
        )));
    };
    if suffix.is_empty() {
        return Ok(value);
    }
    match lookup(suffix, SIZE_UNITS) {
        Some(m) => Ok(value * m),
        None => Err(UnitError::new(format!(
            "`{text}` is not a size: unknown unit `{suffix}`{}; {accepted}",
            case_hint(suffix, SIZE_UNITS)
        ))),
    }
}

/// Parses a duration into seconds.
///
/// # Errors
/// When `text` is not a number optionally followed by one of [`DURATION_UNITS`].
///
/// ```
/// use keyheat::scenario::units::parse_duration;
/// assert_eq!(parse_duration("10d"), Ok(864_000.0));
/// assert_eq!(parse_duration("1.5h"), Ok(5400.0));
/// assert_eq!(parse_duration("250ms"), Ok(0.25));
/// assert_eq!(parse_duration("1mo"), Ok(30.0 * 86_400.0));
/// assert!(parse_duration("3 fortnights").is_err());
/// assert!(parse_duration("1M").unwrap_err().to_string().contains("did you mean `mo`?"));
/// ```
pub fn parse_duration(text: &str) -> Result<f64, UnitError> {
    let accepted = format!(
        "a duration is a number of seconds, optionally followed by {} (mo = 30 days, y = 365 days), e.g. \"10d\"",
        names(DURATION_UNITS)
    );
    let Some((value, suffix)) = split_number(text) else {
        return Err(UnitError::new(format!(
            "`{text}` is not a duration: {accepted}"
        )));
    };
    if suffix.is_empty() {
        return Ok(value);
    }
    match lookup(suffix, DURATION_UNITS) {
        Some(m) => Ok(value * m),
        None => Err(UnitError::new(format!(
            "`{text}` is not a duration: unknown unit `{suffix}`{}; {accepted}",
            duration_alias(suffix)
                // An upper-case M is a month (ISO 8601's P1M), never the
                // minute its lower case would offer (a 1-minute ttl).
                .or_else(|| (suffix == "M").then_some("mo"))
                .map_or_else(
                    || case_hint(suffix, DURATION_UNITS),
                    |u| format!(" (did you mean `{u}`?)")
                )
        ))),
    }
}

/// The duration unit a spelled-out name means (`days` is `d`, `sec` is `s`).
fn duration_alias(word: &str) -> Option<&'static str> {
    match word.trim().to_ascii_lowercase().as_str() {
        "msec" | "msecs" | "millisecond" | "milliseconds" => Some("ms"),
        "sec" | "secs" | "second" | "seconds" => Some("s"),
        "min" | "mins" | "minute" | "minutes" => Some("m"),
        "hr" | "hrs" | "hour" | "hours" => Some("h"),
        "day" | "days" => Some("d"),
        "week" | "weeks" | "wk" | "wks" => Some("w"),
        "month" | "months" => Some("mo"),
        "year" | "years" | "yr" | "yrs" => Some("y"),
        _ => None,
    }
}

/// Parses a rate into operations per second.
///
/// # Errors
/// When `text` is not `<number>[k|K|M|G][/<unit>]` with a unit from [`RATE_UNITS`].
///
/// ```
/// use keyheat::scenario::units::parse_rate;
/// assert_eq!(parse_rate("500/s"), Ok(500.0));
/// assert!((parse_rate("3M/day").unwrap() - 34.722_222).abs() < 1e-5);
/// assert!((parse_rate("20k/min").unwrap() - 333.333_333).abs() < 1e-5);
/// // 13 million a month of 30 days: 13e6 / 2,592,000 s = 5.0154 per second.
/// assert!((parse_rate("13M/month").unwrap() - 5.015_432).abs() < 1e-6);
/// assert!((parse_rate("2M/y").unwrap() - 2e6 / 31_536_000.0).abs() < 1e-12);
/// assert_eq!(parse_rate("50"), Ok(50.0));
/// assert!(parse_rate("5 per fortnight").is_err());
/// ```
pub fn parse_rate(text: &str) -> Result<f64, UnitError> {
    let accepted = format!(
        "a rate is a number per second, or <number>[k|M|G]/<unit> with unit {}, e.g. \"500/s\", \"3M/day\"",
        names(&RATE_UNITS.iter().filter(|(n, _)| !n.ends_with('s') || *n == "s").copied().collect::<Vec<_>>())
    );
    let (count, unit) = match text.split_once('/') {
        Some((count, unit)) => (count, Some(unit.trim())),
        None => (text, None),
    };
    let Some((value, multiplier)) = split_number(count) else {
        return Err(UnitError::new(format!(
            "`{text}` is not a rate: {accepted}"
        )));
    };
    let multiplier = if multiplier.is_empty() {
        1.0
    } else {
        match lookup(multiplier, RATE_MULTIPLIERS) {
            Some(m) => m,
            None if unit.is_none() => {
                return Err(UnitError::new(format!(
                    "`{text}` is not a rate: expected `/` and a time unit after the number, found `{multiplier}`{}; {accepted}",
                    // "rps", or "k rps" after a multiplier.
                    rate_alias(multiplier)
                        .or_else(|| rate_alias(multiplier.get(1..).unwrap_or("")))
                        .map_or(String::new(), |u| format!(" (did you mean `/{u}`?)"))
                )))
            }
            None => {
                return Err(UnitError::new(format!(
                    "`{text}` is not a rate: unknown multiplier `{multiplier}` (use k, M or G); {accepted}"
                )))
            }
        }
    };
    let per_seconds = match unit {
        None => 1.0,
        Some(unit) => match lookup(unit, RATE_UNITS) {
            Some(s) => s,
            None => {
                let hint = match rate_alias(unit) {
                    Some(u) => format!(" (did you mean `/{u}`?)"),
                    None => case_hint(unit, RATE_UNITS),
                };
                return Err(UnitError::new(format!(
                    "`{text}` is not a rate: unknown time unit `{unit}`{hint}; {accepted}"
                )));
            }
        },
    };
    Ok(value * multiplier / per_seconds)
}

/// Parses a traffic growth rate such as `"5%/month"`, `"20%/year"`,
/// `"1%/week"`, `"0.1%/day"` (also `mo`, `y`, `w`, `d`) into a continuous
/// rate per day: ln(1 + g) / period days (month = 30 d, year = 365 d).
///
/// ```
/// use keyheat::scenario::units::parse_growth;
/// let r = parse_growth("5%/month").unwrap();
/// assert!((r - 1.05f64.ln() / 30.0).abs() < 1e-15);
/// assert!((parse_growth("-10%/year").unwrap() - 0.9f64.ln() / 365.0).abs() < 1e-15);
/// assert!(parse_growth("5/month").is_err());
/// ```
///
/// # Errors
/// A [`UnitError`] naming the accepted forms.
pub fn parse_growth(text: &str) -> Result<f64, UnitError> {
    let bad = || {
        UnitError::new(format!(
            "`{text}` is not a growth rate: write a percentage per period, e.g. \"5%/month\", \"20%/year\", \"1%/week\", \"0.1%/day\""
        ))
    };
    let (pct, period) = text.trim().split_once('/').ok_or_else(bad)?;
    let pct = pct.trim().strip_suffix('%').ok_or_else(bad)?;
    let g: f64 = pct.trim().parse().map_err(|_| bad())?;
    let days = match period.trim() {
        "d" | "day" => 1.0,
        "w" | "week" => 7.0,
        "mo" | "month" => 30.0,
        "y" | "year" => 365.0,
        _ => return Err(bad()),
    };
    if !g.is_finite() || g <= -100.0 {
        return Err(bad());
    }
    Ok((1.0 + g / 100.0).ln() / days)
}

/// The time unit a common rate spelling means: `hr` is `h`, `rps` and
/// `qps` are per second, `rpm` per minute.
fn rate_alias(word: &str) -> Option<&'static str> {
    match word.trim().to_ascii_lowercase().as_str() {
        "hr" | "hrs" | "hours" | "rph" => Some("h"),
        "rps" | "qps" | "ops" | "tps" | "wps" | "per second" | "ps" => Some("s"),
        "rpm" | "mins" | "minutes" => Some("min"),
        "days" | "rpd" => Some("d"),
        _ => None,
    }
}

/// A rate whose unit a rate error suggests (`"1500/hr"` + "did you mean
/// `/h`?" → `"1500/h"`, `"2k rps"` → `"2k/s"`), when that parses: the count
/// as written (with its k, M or G) and the suggested unit.
pub fn corrected_rate(text: &str, message: &str) -> Option<String> {
    let start = message.find("did you mean `")? + "did you mean `".len();
    let unit = &message[start..start + message[start..].find('`')?];
    let unit = unit.trim_start_matches('/');
    let t = text.trim();
    let count = match t.split_once('/') {
        Some((count, _)) => count.trim(),
        None => {
            // The number and its multiplier, without the unit word after.
            let number = t.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == ' ');
            let rest = t[number.len()..].trim_start();
            match rest.chars().next() {
                Some(m @ ('k' | 'M' | 'G')) if rest.len() > 1 => {
                    return parse_rate(&format!("{}{m}/{unit}", number.trim()))
                        .is_ok()
                        .then(|| format!("{}{m}/{unit}", number.trim()));
                }
                _ => number.trim(),
            }
        }
    };
    if count.is_empty() {
        return None;
    }
    let candidate = format!("{count}/{unit}");
    parse_rate(&candidate).is_ok().then_some(candidate)
}

/// A growth rate salvaged from how people write them: the leading
/// percentage (a minus sign kept) and its period after `/`, `per`, `a` or
/// `each`, or as `monthly`, `yearly`, `annually`, `weekly`, `daily`:
/// `"4% per month"` → `"4%/month"`, `"20% a year"` → `"20%/year"`,
/// `"3% monthly"` → `"3%/month"`, and a bare `"6%"` → `"6%/month"`. Only
/// when the result parses, so a fix line never offers a number the user
/// did not write.
///
/// ```
/// use keyheat::scenario::units::salvaged_growth;
/// assert_eq!(salvaged_growth("4% per month").as_deref(), Some("4%/month"));
/// assert_eq!(salvaged_growth("20 % a year").as_deref(), Some("20%/year"));
/// assert_eq!(salvaged_growth("-2.5% weekly").as_deref(), Some("-2.5%/week"));
/// assert_eq!(salvaged_growth("6%").as_deref(), Some("6%/month"));
/// assert_eq!(salvaged_growth("1%/days").as_deref(), Some("1%/day"));
/// assert_eq!(salvaged_growth("4 per month"), None);
/// assert_eq!(salvaged_growth("fast"), None);
/// ```
pub fn salvaged_growth(text: &str) -> Option<String> {
    let t = text.trim();
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t),
    };
    let (number, rest) = leading_number(t)?;
    let rest = rest.strip_prefix('%')?.trim().to_ascii_lowercase();
    let rest = rest.strip_prefix('/').unwrap_or(&rest).trim();
    let mut words = rest.split_whitespace();
    // A bare percentage ("6%") names no period: a month, the usual one.
    let Some(mut word) = words.next() else {
        let candidate = format!("{sign}{number}%/month");
        return parse_growth(&candidate).is_ok().then_some(candidate);
    };
    if matches!(word, "per" | "a" | "an" | "each" | "every") {
        word = words.next()?;
    }
    if words.next().is_some() {
        return None;
    }
    let period = match word {
        "d" | "day" | "days" | "daily" => "day",
        "w" | "wk" | "week" | "weeks" | "weekly" => "week",
        "mo" | "mon" | "month" | "months" | "monthly" => "month",
        "y" | "yr" | "year" | "years" | "yearly" | "annually" | "annum" => "year",
        _ => return None,
    };
    let candidate = format!("{sign}{number}%/{period}");
    parse_growth(&candidate).is_ok().then_some(candidate)
}

/// The number `text` starts with, thousands commas dropped, and what
/// follows it (leading spaces trimmed); None when it does not start with a
/// digit.
fn leading_number(text: &str) -> Option<(String, &str)> {
    let t = text.trim();
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, ',' | '.' | '_')))
        .unwrap_or(t.len());
    let number = t[..end].replace(',', "");
    if number.is_empty() || !number.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some((number, t[end..].trim_start()))
}

/// A rate salvaged from how people write them, when no unit suggestion
/// fits: the leading number (thousands commas dropped) with its k, M or G,
/// what is counted (`ops`, `requests`, `rows`: a word or two, not a size)
/// dropped, and the time unit after
/// `/` or `per` (per second when none): `"500 ops/s"` → `"500/s"`, `"1,500/s"`
/// → `"1500/s"`, `"20 requests per minute"` → `"20/min"`. Only when the result
/// parses, so a fix line never offers a number the user did not write.
///
/// ```
/// use keyheat::scenario::units::salvaged_rate;
/// assert_eq!(salvaged_rate("500 ops/s").as_deref(), Some("500/s"));
/// assert_eq!(salvaged_rate("750 req/s").as_deref(), Some("750/s"));
/// assert_eq!(salvaged_rate("1,500/s").as_deref(), Some("1500/s"));
/// assert_eq!(salvaged_rate("2k requests per minute").as_deref(), Some("2k/min"));
/// assert_eq!(salvaged_rate("20k rows/s").as_deref(), Some("20k/s"));
/// assert_eq!(salvaged_rate("144M per day").as_deref(), Some("144M/d"));
/// assert_eq!(salvaged_rate("144M messages per day").as_deref(), Some("144M/d"));
/// assert_eq!(salvaged_rate("40m/day").as_deref(), Some("40M/d"));
/// assert_eq!(salvaged_rate("2K req/s").as_deref(), Some("2k/s"));
/// assert_eq!(salvaged_rate("3 million per day").as_deref(), Some("3M/d"));
/// assert_eq!(salvaged_rate("3 million/day").as_deref(), Some("3M/d"));
/// assert_eq!(salvaged_rate("40 m/s").as_deref(), Some("40/s"));
/// assert_eq!(salvaged_rate("5µ/s"), None);
/// assert_eq!(salvaged_rate("20 kb/s"), None);
/// assert_eq!(salvaged_rate("fast"), None);
/// ```
pub fn salvaged_rate(text: &str) -> Option<String> {
    let (number, mut rest) = leading_number(text)?;
    let mut mult = "";
    // The multiplier as written (`k`, `M`, `G`); in the other case right
    // after the number (`40m` is 40 million, never 40 milli-requests; `40
    // m/s` may mean minutes); or as a word.
    let t = text.trim();
    let touching = t
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, ',' | '.' | '_')))
        .is_some_and(|i| !t[i..].starts_with(char::is_whitespace));
    let letter = rest
        .chars()
        .next()
        .filter(|c| c.is_ascii() && !rest[1..].starts_with(|c: char| c.is_ascii_alphabetic()));
    if let Some(m) = letter.and_then(|c| match c {
        'k' | 'M' | 'G' => Some(&rest[..1]),
        'K' if touching => Some("k"),
        'm' if touching => Some("M"),
        'g' if touching => Some("G"),
        _ => None,
    }) {
        mult = m;
        rest = rest[1..].trim_start();
    } else {
        let end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        if let Some(m) = match word.to_ascii_lowercase().as_str() {
            "thousand" => Some("k"),
            "million" | "mn" => Some("M"),
            "billion" | "bn" => Some("G"),
            _ => None,
        } {
            mult = m;
            rest = after.trim_start();
        }
    }
    let lower = rest.to_ascii_lowercase();
    let padded = format!(" {lower}");
    let (words, unit) = match lower.split_once('/') {
        Some((w, u)) => (w.to_string(), u.trim().to_string()),
        None => match padded.split_once(" per ") {
            Some((w, u)) => (w.to_string(), u.trim().to_string()),
            None => (lower.clone(), "s".to_string()),
        },
    };
    // What is counted (`ops`, `requests`, `rows`, `messages`): one or two
    // words of letters, not a size (`20 kb/s` is bandwidth, not a rate).
    const SIZES: [&str; 10] = [
        "b", "kb", "mb", "gb", "kib", "mib", "gib", "byte", "bytes", "bps",
    ];
    let counted: Vec<&str> = words.split_whitespace().collect();
    if counted.len() > 2
        || counted.contains(&"per")
        || !counted
            .iter()
            .all(|w| w.chars().all(|c| c.is_ascii_alphabetic()) && !SIZES.contains(w))
    {
        return None;
    }
    let unit = match unit.as_str() {
        "second" | "sec" => "s",
        "minute" => "min",
        "hour" => "h",
        "day" => "d",
        u => u,
    };
    let candidate = format!("{number}{mult}/{unit}");
    parse_rate(&candidate).is_ok().then_some(candidate)
}

/// A fix for a size written in a common spelling the parser does not take
/// (`"44 bytes"`, `"1,500 bytes"`, `"2 kilobytes"`, `"1.5 mb"`): the user's
/// number with the unit meant, when that parses; None otherwise.
///
/// ```
/// use keyheat::scenario::units::salvaged_size;
/// assert_eq!(salvaged_size("44 bytes").as_deref(), Some("44B"));
/// assert_eq!(salvaged_size("1,500 bytes").as_deref(), Some("1500B"));
/// assert_eq!(salvaged_size("2 kilobytes").as_deref(), Some("2KB"));
/// assert_eq!(salvaged_size("1.5 mb").as_deref(), Some("1.5MB"));
/// assert_eq!(salvaged_size("4 kib").as_deref(), Some("4KiB"));
/// assert_eq!(salvaged_size("big"), None);
/// ```
pub fn salvaged_size(text: &str) -> Option<String> {
    let (number, rest) = leading_number(text)?;
    let unit = match rest.trim().to_ascii_lowercase().as_str() {
        "b" | "byte" | "bytes" => "B",
        "kb" | "kilobyte" | "kilobytes" => "KB",
        "mb" | "megabyte" | "megabytes" => "MB",
        "gb" | "gigabyte" | "gigabytes" => "GB",
        "tb" | "terabyte" | "terabytes" => "TB",
        "kib" | "kibibyte" | "kibibytes" => "KiB",
        "mib" | "mebibyte" | "mebibytes" => "MiB",
        "gib" | "gibibyte" | "gibibytes" => "GiB",
        "tib" | "tebibyte" | "tebibytes" => "TiB",
        _ => return None,
    };
    let candidate = format!("{number}{unit}");
    parse_size(&candidate).is_ok().then_some(candidate)
}

/// The value with its thousands commas dropped (`"5,000MB"` → `"5000MB"`,
/// `"1,800s"` → `"1800s"`), when it has some and that parses: the fix then
/// keeps the user's number rather than offering an example.
///
/// ```
/// use keyheat::scenario::units::{parse_duration, parse_size, without_commas};
/// assert_eq!(without_commas("5,000MB", parse_size).as_deref(), Some("5000MB"));
/// assert_eq!(without_commas("1,800s", parse_duration).as_deref(), Some("1800s"));
/// assert_eq!(without_commas("5000MB", parse_size), None);
/// assert_eq!(without_commas("5,000 furlongs", parse_size), None);
/// ```
pub fn without_commas<T, E>(
    text: &str,
    parse: fn(&str) -> std::result::Result<T, E>,
) -> Option<String> {
    if !text.contains(',') {
        return None;
    }
    let candidate = text.trim().replace(',', "");
    parse(&candidate).is_ok().then_some(candidate)
}

/// The value with its unit replaced by the one a unit error suggests
/// (`"1.2 kb"` + "did you mean `KB`?" → `"1.2KB"`), when that parses.
pub fn corrected<T, E>(
    text: &str,
    message: &str,
    parse: fn(&str) -> std::result::Result<T, E>,
) -> Option<String> {
    let start = message.find("did you mean `")? + "did you mean `".len();
    let unit = &message[start..start + message[start..].find('`')?];
    let t = text.trim();
    let number: String = t
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | '_' | '-' | '+'))
        .collect();
    if number.is_empty() {
        return None;
    }
    let candidate = format!("{number}{unit}");
    parse(&candidate).is_ok().then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_si_and_iec() {
        assert_eq!(parse_size("1B"), Ok(1.0));
        assert_eq!(parse_size("1KB"), Ok(1000.0));
        assert_eq!(parse_size("1kB"), Ok(1000.0));
        assert_eq!(parse_size("2MB"), Ok(2e6));
        assert_eq!(parse_size("10GB"), Ok(1e10));
        assert_eq!(parse_size("1TB"), Ok(1e12));
        assert_eq!(parse_size("1KiB"), Ok(1024.0));
        assert_eq!(parse_size("1MiB"), Ok(1_048_576.0));
        assert_eq!(parse_size("1GiB"), Ok(1_073_741_824.0));
        assert_eq!(parse_size("1TiB"), Ok(1_099_511_627_776.0));
        assert_eq!(parse_size("1PB"), Ok(1e15));
        assert_eq!(parse_size("2PiB"), Ok(2.0 * 1_125_899_906_842_624.0));
        assert_eq!(parse_size("1.2KB"), Ok(1200.0));
        assert_eq!(parse_size("400 KB"), Ok(400_000.0));
        assert_eq!(parse_size(" 7 "), Ok(7.0));
        assert_eq!(parse_size("-1KB"), Ok(-1000.0));
    }

    #[test]
    fn size_suffixes_are_case_sensitive() {
        let err = parse_size("1kb").unwrap_err();
        assert!(
            err.message()
                .contains("unknown unit `kb` (did you mean `KB`?)"),
            "{err}"
        );
        assert!(parse_size("1kib").is_err());
        assert!(parse_size("1mb").is_err());
    }

    #[test]
    fn junk_names_the_accepted_suffixes() {
        let err = parse_size("10 parsecs").unwrap_err();
        assert_eq!(
            err.to_string(),
            "`10 parsecs` is not a size: unknown unit `parsecs`; a size is a number of bytes, optionally followed by \
             `B`, `KB`, `kB`, `MB`, `GB`, `TB`, `PB`, `KiB`, `MiB`, `GiB`, `TiB` or `PiB` (e.g. \"1.2KB\", \"4KiB\")"
        );
        assert!(parse_size("").is_err());
        assert!(parse_size("KB").is_err());
        assert!(parse_size(".").is_err());
        assert!(parse_size("1.2.3KB").is_err());
        assert!(parse_size("1e3").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90s"), Ok(90.0));
        assert_eq!(parse_duration("90"), Ok(90.0));
        assert_eq!(parse_duration("1m"), Ok(60.0));
        assert_eq!(parse_duration("1h"), Ok(3600.0));
        assert_eq!(parse_duration("10d"), Ok(864_000.0));
        assert_eq!(parse_duration("2w"), Ok(1_209_600.0));
        assert_eq!(parse_duration("1y"), Ok(31_536_000.0));
        assert_eq!(parse_duration("1.5h"), Ok(5400.0));
        assert_eq!(parse_duration("100ms"), Ok(0.1));
        let err = parse_duration("1H").unwrap_err();
        assert!(err.message().contains("(did you mean `h`?)"), "{err}");
        assert!(parse_duration("1 hour").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("500/s"), Ok(500.0));
        assert_eq!(parse_rate("500 / sec"), Ok(500.0));
        assert_eq!(parse_rate("1.5/h"), Ok(1.5 / 3600.0));
        assert_eq!(parse_rate("100/d"), Ok(100.0 / 86_400.0));
        assert_eq!(parse_rate("3M/day"), Ok(3e6 / 86_400.0));
        assert_eq!(parse_rate("20k/min"), Ok(20_000.0 / 60.0));
        assert_eq!(parse_rate("2G/week"), Ok(2e9 / 604_800.0));
        // A month of 30 days and a year of 365, as the `mo` / `y` durations:
        // 13e6 / (30 × 86,400) = 5.015 per second.
        assert_eq!(parse_rate("13M/month"), Ok(13e6 / 2_592_000.0));
        assert!((parse_rate("13M/month").unwrap() - 5.015).abs() < 5e-4);
        assert_eq!(parse_rate("13M/mo"), Ok(13e6 / 2_592_000.0));
        assert_eq!(parse_rate("2M/y"), Ok(2e6 / 31_536_000.0));
        assert_eq!(parse_rate("2M/year"), Ok(2e6 / 31_536_000.0));
        assert_eq!(parse_rate("24/years"), Ok(24.0 / 31_536_000.0));
        assert_eq!(parse_rate("3_000/minute"), Ok(50.0));
        assert_eq!(parse_rate("12"), Ok(12.0));
        assert_eq!(parse_rate("-5/s"), Ok(-5.0));
        assert!(parse_rate("5/fortnight")
            .unwrap_err()
            .message()
            .contains("unknown time unit `fortnight`"));
        assert!(parse_rate("5x/s")
            .unwrap_err()
            .message()
            .contains("unknown multiplier `x`"));
        assert!(parse_rate("/s").is_err());
    }
}

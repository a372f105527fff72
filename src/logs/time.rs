//! Timestamps as logs write them: epoch numbers (seconds, milliseconds,
//! microseconds or nanoseconds, told apart by magnitude unless the user says)
//! and RFC 3339 / ISO 8601 date-times (`2024-05-01T12:00:00.250Z`,
//! `2024-05-01 12:00:00+02:00`).

/// The unit of a numeric timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Seconds.
    Seconds,
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Nanoseconds.
    Nanos,
}

impl TimeUnit {
    /// Seconds per unit.
    pub fn seconds(self) -> f64 {
        match self {
            TimeUnit::Seconds => 1.0,
            TimeUnit::Millis => 1e-3,
            TimeUnit::Micros => 1e-6,
            TimeUnit::Nanos => 1e-9,
        }
    }

    /// The command-line spelling (`s`, `ms`, `us`, `ns`).
    pub fn parse(text: &str) -> Option<TimeUnit> {
        match text {
            "s" => Some(TimeUnit::Seconds),
            "ms" => Some(TimeUnit::Millis),
            "us" | "µs" => Some(TimeUnit::Micros),
            "ns" => Some(TimeUnit::Nanos),
            _ => None,
        }
    }

    /// The unit an epoch number of this magnitude is most likely written in:
    /// today's epoch is ≈ 1.7·10⁹ s, 1.7·10¹² ms, 1.7·10¹⁵ µs, 1.7·10¹⁸ ns, so
    /// the cuts sit at 10¹¹, 10¹⁴ and 10¹⁷ (a relative clock such as a trace's
    /// seconds since boot stays in seconds).
    ///
    /// ```
    /// use keyheat::logs::time::TimeUnit;
    /// assert_eq!(TimeUnit::guess(5_633_898.0), TimeUnit::Seconds);
    /// assert_eq!(TimeUnit::guess(1_714_564_800_000.0), TimeUnit::Millis);
    /// assert_eq!(TimeUnit::guess(1.7e18), TimeUnit::Nanos);
    /// ```
    pub fn guess(value: f64) -> TimeUnit {
        let v = value.abs();
        if v < 1e11 {
            TimeUnit::Seconds
        } else if v < 1e14 {
            TimeUnit::Millis
        } else if v < 1e17 {
            TimeUnit::Micros
        } else {
            TimeUnit::Nanos
        }
    }
}

/// Parses a plain decimal number (`5633898`, `1339518083.107412`, `-2.5`).
pub fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let v: f64 = t.parse().ok()?;
    v.is_finite().then_some(v)
}

/// Days from 1970-01-01 to the civil date `y-m-d` (proleptic Gregorian;
/// Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Parses an RFC 3339 / ISO 8601 date-time into seconds since the Unix epoch:
/// `YYYY-MM-DD`, then `T` or a space and `HH:MM[:SS[.frac]]`, then `Z`,
/// `±HH:MM`, `±HHMM` or nothing (UTC).
///
/// ```
/// use keyheat::logs::time::datetime;
/// assert_eq!(datetime("1970-01-02T00:00:00Z"), Some(86_400.0));
/// assert_eq!(datetime("2024-05-01T12:00:00.250Z"), Some(1_714_564_800.25));
/// assert_eq!(datetime("2024-05-01 14:00:00+02:00"), Some(1_714_564_800.0));
/// assert_eq!(datetime("2024-13-01T00:00:00Z"), None);
/// ```
pub fn datetime(text: &str) -> Option<f64> {
    let b = text.trim().as_bytes();
    let digits = |from: usize, n: usize| -> Option<u32> {
        let s = b.get(from..from + n)?;
        s.iter().try_fold(0u32, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    let (y, mo, d) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !(1..=12).contains(&mo) {
        return None;
    }
    if !(1..=31).contains(&d) {
        return None;
    }
    let mut secs = days_from_civil(i64::from(y), mo, d) as f64 * 86_400.0;
    let mut i = 10;
    if matches!(b.get(i), Some(b'T' | b't' | b' ')) {
        let (h, mi) = (digits(i + 1, 2)?, digits(i + 4, 2)?);
        if b.get(i + 3) != Some(&b':') || h > 23 || mi > 59 {
            return None;
        }
        secs += f64::from(h * 3600 + mi * 60);
        i += 6;
        if b.get(i) == Some(&b':') {
            let s = digits(i + 1, 2)?;
            if s > 60 {
                return None;
            }
            secs += f64::from(s);
            i += 3;
            if matches!(b.get(i), Some(b'.' | b',')) {
                let start = i + 1;
                let mut end = start;
                while b.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
                let frac: f64 = std::str::from_utf8(&b[start..end])
                    .ok()
                    .and_then(|f| format!("0.{f}").parse().ok())?;
                secs += frac;
                i = end;
            }
        }
        match b.get(i) {
            None => {}
            Some(b'Z' | b'z') if i + 1 == b.len() => {}
            Some(&sign @ (b'+' | b'-')) => {
                let oh = digits(i + 1, 2)?;
                let om = match b.get(i + 3) {
                    Some(b':') => digits(i + 4, 2)?,
                    None => 0,
                    _ => digits(i + 3, 2)?,
                };
                let off = f64::from(oh * 3600 + om * 60);
                secs += if sign == b'+' { -off } else { off };
            }
            _ => return None,
        }
    } else if i != b.len() {
        return None;
    }
    Some(secs)
}

/// A timestamp field: a number in `unit` (guessed from its magnitude when
/// `None`), or a date-time. Returns seconds and the unit used for numbers.
pub fn timestamp(text: &str, unit: Option<TimeUnit>) -> Option<(f64, Option<TimeUnit>)> {
    if let Some(v) = number(text) {
        let u = unit.unwrap_or_else(|| TimeUnit::guess(v));
        return Some((v * u.seconds(), Some(u)));
    }
    datetime(text).map(|s| (s, unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_days_match_known_dates() {
        // 2000-03-01 is day 11,017 (10,957 days to 2000-01-01, + 31 + 29).
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
    }

    #[test]
    fn numbers_and_units() {
        assert_eq!(
            timestamp("1339518083.107412", None),
            Some((1_339_518_083.107_412, Some(TimeUnit::Seconds)))
        );
        let (s, u) = timestamp("1714564800250", None).unwrap();
        assert_eq!(u, Some(TimeUnit::Millis));
        assert!((s - 1_714_564_800.25).abs() < 1e-6);
        assert_eq!(
            timestamp("12", Some(TimeUnit::Millis)).map(|x| x.0),
            Some(0.012)
        );
        assert_eq!(timestamp("yesterday", None), None);
        assert_eq!(datetime("2024-05-01T12:00Z"), Some(1_714_564_800.0));
        assert_eq!(datetime("2024-05-01"), Some(1_714_521_600.0));
    }
}

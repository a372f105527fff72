//! Human formatting of numbers, shares and byte sizes, shared by the chart
//! axes and the report: three significant figures, thousands separators,
//! decimal byte units (1 KB = 1000 B). Pure functions; the same input always
//! gives the same text.

/// A span of time given in days, in the unit a reader sets a bucket in:
/// days from one day up, hours within a day, minutes within an hour,
/// seconds within a minute (`1.5` → "1.50 days", `0.4025` → "9.66 hours",
/// `0.01` → "14.4 minutes", a 20 MB row's bucket "1.03 seconds", not
/// "0.0171 minutes"), three significant digits.
///
/// ```
/// use keyheat::format::span_of_days;
/// assert_eq!(span_of_days(38.0), "38.0 days");
/// assert_eq!(span_of_days(0.4025), "9.66 hours");
/// assert_eq!(span_of_days(0.01), "14.4 minutes");
/// assert_eq!(span_of_days(0.0171 / 1440.0), "1.03 seconds");
/// ```
pub fn span_of_days(d: f64) -> String {
    if d >= 1.0 {
        format!("{} days", sig3(d))
    } else if d * 24.0 >= 1.0 {
        format!("{} hours", sig3(d * 24.0))
    } else if d * 1440.0 >= 1.0 {
        format!("{} minutes", sig3(d * 1440.0))
    } else {
        format!("{} seconds", sig3(d * 86_400.0))
    }
}

/// A checkpoint's day: whole days as they are, tenths to a tenth (the
/// breach days the engine adds are rounded so: day 180.2 is not shown as a
/// second 180), others to 3 significant digits (`"1h"` is day 0.0417).
///
/// ```
/// use keyheat::format::day;
/// assert_eq!(day(90.0), "90");
/// assert_eq!(day(4.7), "4.7");
/// assert_eq!(day(1.0 / 24.0), "0.0417");
/// ```
pub fn day(d: f64) -> String {
    let tenths = d * 10.0;
    if d.fract() == 0.0 {
        whole(d)
    } else if (tenths - tenths.round()).abs() < 1e-9 {
        format!("{d:.1}")
    } else {
        sig3(d)
    }
}

/// Three significant figures; values of 1000 and more are rounded to three
/// significant figures and written as integers with thousands separators;
/// very small values use scientific notation. Non-finite values read `n/a`,
/// `∞` or `-∞`.
///
/// ```
/// use keyheat::format::sig3;
/// assert_eq!(sig3(0.9512), "0.951");
/// assert_eq!(sig3(1.0), "1.00");
/// assert_eq!(sig3(12_345.6), "12,300");
/// assert_eq!(sig3(9.996), "10.0");
/// assert_eq!(sig3(0.0), "0");
/// assert_eq!(sig3(-2.5), "-2.50");
/// assert_eq!(sig3(0.000_012_34), "1.23e-5");
/// ```
pub fn sig3(x: f64) -> String {
    if x.is_nan() {
        return "n/a".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "∞" } else { "-∞" }.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    // `{:.2e}` rounds exactly to three significant figures, so its exponent is
    // the exponent of the rounded value (9.996 → "1.00e1").
    let sci = format!("{x:.2e}");
    let Some((mantissa, exp)) = sci.split_once('e') else {
        return sci;
    };
    let Ok(exp) = exp.parse::<i32>() else {
        return sci;
    };
    if exp >= 3 {
        return match sci.parse::<f64>() {
            Ok(rounded) if rounded.abs() < 9.0e15 => thousands(rounded.round() as i64),
            _ => sci,
        };
    }
    if exp < -4 {
        return format!("{mantissa}e{exp}");
    }
    let decimals = (2 - exp) as usize;
    format!("{x:.decimals$}")
}

/// A whole number as a scenario writes it: `_` every three digits
/// (`100_000`), as TOML reads it.
///
/// ```
/// assert_eq!(keyheat::format::toml_whole(2_000_000), "2_000_000");
/// assert_eq!(keyheat::format::toml_whole(999), "999");
/// ```
pub fn toml_whole(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// An integer with thousands separators.
///
/// ```
/// assert_eq!(keyheat::format::thousands(-1_234_567), "-1,234,567");
/// assert_eq!(keyheat::format::thousands(999), "999");
/// ```
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count (partitions, trials) with thousands separators.
///
/// ```
/// assert_eq!(keyheat::format::count(4096), "4,096");
/// ```
pub fn count(n: usize) -> String {
    thousands(i64::try_from(n).unwrap_or(i64::MAX))
}

/// A fraction in [0, 1] as a percentage with three significant figures;
/// magnitudes below 1e-9 (rounding noise, e.g. a Wilson bound at 0) read `0%`,
/// and other positive ones below 0.001% read `under 0.001%` (not a percentage in
/// scientific notation; summary.json keeps the exact fraction).
///
/// ```
/// use keyheat::format::percent;
/// assert_eq!(percent(0.023149), "2.31%");
/// assert_eq!(percent(1.0), "100%");
/// assert_eq!(percent(0.0), "0%");
/// assert_eq!(percent(1.7e-18), "0%");
/// assert_eq!(percent(4.45e-7), "under 0.001%");
/// assert_eq!(percent(1e-5), "0.00100%");
/// ```
pub fn percent(p: f64) -> String {
    if p.abs() < 1e-9 {
        return "0%".to_string();
    }
    if p > 0.0 && p * 100.0 < 1e-3 {
        return "under 0.001%".to_string();
    }
    format!("{}%", sig3(p * 100.0))
}

/// `n` and the noun for it: `1 partition`, `4,096 partitions`.
///
/// ```
/// assert_eq!(keyheat::format::plural(1, "table", "tables"), "1 table");
/// assert_eq!(keyheat::format::plural(4096, "chunk", "chunks"), "4,096 chunks");
/// ```
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// Seconds as the largest unit that reads well, without trailing zeros:
/// `500 ms`, `15 s`, `1.5 min`, `1 h`, `365 d`; a non-finite value reads `0 s`.
///
/// ```
/// use keyheat::format::duration;
/// assert_eq!(duration(0.5), "500 ms");
/// assert_eq!(duration(90.0), "1.5 min");
/// assert_eq!(duration(86_400.0 * 365.0), "365 d");
/// assert_eq!(duration(0.0), "0 s");
/// ```
pub fn duration(s: f64) -> String {
    let s = if s.is_finite() { s } else { 0.0 };
    let (v, unit) = if s >= 86_400.0 {
        (s / 86_400.0, "d")
    } else if s >= 3_600.0 {
        (s / 3_600.0, "h")
    } else if s >= 60.0 {
        (s / 60.0, "min")
    } else if s >= 1.0 || s == 0.0 {
        (s, "s")
    } else {
        (s * 1000.0, "ms")
    };
    format!("{} {unit}", axis(v))
}

/// A count held in an `f64`, rounded, with thousands separators (non-finite
/// or huge values as [`sig3`]).
///
/// ```
/// assert_eq!(keyheat::format::whole(1234.6), "1,235");
/// ```
pub fn whole(x: f64) -> String {
    if x.is_finite() && x.abs() < 9.0e15 {
        thousands(x.round() as i64)
    } else {
        sig3(x)
    }
}

/// A monthly cost: two decimals below 1000, whole with thousands
/// separators from 1000 (`12.34`, `1,235`).
///
/// ```
/// assert_eq!(keyheat::format::money(12.345), "12.35");
/// assert_eq!(keyheat::format::money(1234.6), "1,235");
/// ```
pub fn money(x: f64) -> String {
    if !x.is_finite() {
        return sig3(x);
    }
    if x.abs() >= 1000.0 {
        whole(x)
    } else {
        format!("{x:.2}")
    }
}

/// A figure's exact value (a store setting as given): whole numbers with
/// thousands separators, others with at most 3 decimals.
///
/// ```
/// assert_eq!(keyheat::format::exact(10_000.0), "10,000");
/// assert_eq!(keyheat::format::exact(4.95), "4.95");
/// assert_eq!(keyheat::format::exact(12_345.6), "12345.6");
/// ```
pub fn exact(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let s = thousands(x.abs() as i64);
        if x < 0.0 {
            format!("-{s}")
        } else {
            s
        }
    } else {
        format!("{}", (x * 1000.0).round() / 1000.0)
    }
}

const BYTE_UNITS: [&str; 7] = ["B", "KB", "MB", "GB", "TB", "PB", "EB"];

/// `b` as a whole number under 1024 of KiB, MiB, GiB or TiB when it is
/// exactly one (409,600 → "400 KiB"; 10⁹ and 6·10⁹ stay decimal), else `None`.
fn exact_binary(b: f64) -> Option<String> {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if !(b.is_finite() && b >= 1024.0 && b.fract() == 0.0) {
        return None;
    }
    let mut value = b;
    let mut unit = None;
    for u in UNITS {
        if value % 1024.0 != 0.0 || value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = Some(u);
    }
    // Only round binary sizes (a whole number under 1024 of the unit).
    unit.filter(|_| value < 1024.0)
        .map(|u| format!("{} {u}", value as i64))
}

/// Bytes in decimal units (1 KB = 1000 B) with three significant figures.
///
/// ```
/// use keyheat::format::bytes;
/// assert_eq!(bytes(512.0), "512 B");
/// assert_eq!(bytes(1_234_567.0), "1.23 MB");
/// assert_eq!(bytes(999_700.0), "1.00 MB");
/// assert_eq!(bytes(10e9), "10.0 GB");
/// ```
pub fn bytes(b: f64) -> String {
    // Store limits set in binary units (DynamoDB's 400 KB = 400 KiB,
    // Cassandra's 100 MiB, Bigtable's 256 MiB) read as they are documented.
    if let Some(s) = exact_binary(b) {
        return s;
    }
    let (value, unit) = scale_bytes(b);
    if unit == 0 {
        format!("{} B", byte_count(value))
    } else {
        format!("{} {}", sig3(value), BYTE_UNITS[unit])
    }
}

/// [`bytes`] without trailing zeros, for axis labels.
///
/// ```
/// use keyheat::format::bytes_short;
/// assert_eq!(bytes_short(1_000_000.0), "1 MB");
/// assert_eq!(bytes_short(1_500.0), "1.5 KB");
/// assert_eq!(bytes_short(0.0), "0 B");
/// ```
pub fn bytes_short(b: f64) -> String {
    let (value, unit) = scale_bytes(b);
    let number = if unit == 0 {
        byte_count(value)
    } else {
        trim_zeros(&sig3(value))
    };
    format!("{number} {}", BYTE_UNITS[unit])
}

/// A number for an axis label: [`sig3`] without trailing zeros.
///
/// ```
/// assert_eq!(keyheat::format::axis(0.50), "0.5");
/// assert_eq!(keyheat::format::axis(1200.0), "1,200");
/// ```
pub fn axis(x: f64) -> String {
    trim_zeros(&sig3(x))
}

/// A byte count below 1000 as a whole number.
fn byte_count(b: f64) -> String {
    if b.is_finite() {
        format!("{}", b.round() as i64)
    } else {
        sig3(b)
    }
}

/// Removes trailing zeros after a decimal point (`"1.50"` → `"1.5"`, `"2.00"` → `"2"`).
fn trim_zeros(s: &str) -> String {
    if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// Picks the decimal unit so the three-significant-figure value is below 1000.
fn scale_bytes(b: f64) -> (f64, usize) {
    if !b.is_finite() || b.abs() < 999.5 {
        return (b, 0);
    }
    let mut unit = 0;
    let mut value = b;
    while unit + 1 < BYTE_UNITS.len() {
        // Compare after rounding so 999.7 KB becomes 1.00 MB, not 1,000 KB.
        let rounded: f64 = format!("{value:.2e}").parse().unwrap_or(value);
        if rounded.abs() < 1000.0 {
            break;
        }
        value /= 1000.0;
        unit += 1;
    }
    (value, unit)
}

/// Significant digits of the values `timeseries.csv` writes: one trial's
/// draws, whose noise is orders of magnitude above the sixth digit.
pub const SERIES_DIGITS: i32 = 6;

/// `x` rounded to `digits` significant digits (1 to 15), written as
/// [`shortest_into`] writes the rounded value: 16.95008642078857 → "16.9501",
/// 0.49499999999999994 → "0.495", 1234567.8 → "1234570".
///
/// The rounded value is n / 10^k (or n · 10^−k) with n an integer of at most
/// `digits` digits and 10^k exact, one correctly rounded division: the
/// nearest double to that decimal, whose shortest digits are the decimal's.
/// Magnitudes are found against exact powers of ten, not a logarithm, so the
/// bytes are the same on every platform. Zero, non-finite values and
/// magnitudes outside [10⁻¹⁵, 10¹⁵) are written as they are.
///
/// ```
/// let mut s = String::new();
/// keyheat::format::significant_into(16.95008642078857, 6, &mut s);
/// s.push(' ');
/// keyheat::format::significant_into(0.49499999999999994, 6, &mut s);
/// s.push(' ');
/// keyheat::format::significant_into(-0.000123456789, 3, &mut s);
/// assert_eq!(s, "16.9501 0.495 -0.000123");
/// ```
pub fn significant_into(x: f64, digits: i32, out: &mut String) {
    let mut text = [0u8; 48];
    match significant_text(x, digits, &mut text) {
        // ASCII digits, sign and point only.
        Some(start) => out.push_str(std::str::from_utf8(&text[start..]).unwrap_or_default()),
        None => shortest_into(x, out),
    }
}

/// [`significant_into`] appending the text's bytes to `out` (a file's
/// bytes, built without a UTF-8 check per number).
///
/// ```
/// let mut b = Vec::new();
/// keyheat::format::significant_bytes_into(16.95008642078857, 6, &mut b);
/// assert_eq!(b, b"16.9501");
/// ```
pub fn significant_bytes_into(x: f64, digits: i32, out: &mut Vec<u8>) {
    let mut text = [0u8; 48];
    match significant_text(x, digits, &mut text) {
        Some(start) => out.extend_from_slice(&text[start..]),
        None => {
            let mut s = String::new();
            shortest_into(x, &mut s);
            out.extend_from_slice(s.as_bytes());
        }
    }
}

/// [`significant_into`]'s text, right-aligned in `text`: returns where it
/// starts, or `None` for what [`shortest_into`] writes as it is (non-finite
/// values, −0, magnitudes outside [10⁻¹⁵, 10¹⁵)).
fn significant_text(x: f64, digits: i32, text: &mut [u8; 48]) -> Option<usize> {
    const POW10: [f64; 38] = [
        1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2,
        1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    let mut at = text.len();
    let mut put = |text: &mut [u8; 48], byte: u8| {
        at -= 1;
        text[at] = byte;
        at
    };
    if x.to_bits() == 0 {
        // +0, what an idle partition's timeseries is made of.
        return Some(put(text, b'0'));
    }
    let a = x.abs();
    if !x.is_finite() || !(POW10[0]..POW10[30]).contains(&a) {
        return None;
    }
    let e = decimal_exponent(a, &POW10[..31]);
    let k = digits.clamp(1, 15) - 1 - e;
    // 10^k as a double is exact up to 10²².
    let &scale = POW10.get((k.unsigned_abs() + 15) as usize)?;
    // n = a·10^k rounded, of `digits` digits (one more when it rounds up to
    // a power of ten); written straight as the decimal n·10^−k, which is
    // what Display writes for the nearest double to it (at most 16 digits
    // tell doubles apart): no second formatting pass. At most 16 digits, a
    // sign, "0." and 15 zeros before them, or 22 after; written from the
    // right.
    let mut m = round_below_2_53(if k >= 0 { a * scale } else { a / scale });
    let digit = |m: u64| b'0' + (m % 10) as u8;
    if k <= 0 {
        for _ in 0..k.unsigned_abs() {
            put(text, b'0');
        }
    } else {
        // The fraction's k digits, its trailing zeros dropped.
        let mut fraction = k;
        while fraction > 0 && m.is_multiple_of(10) {
            m /= 10;
            fraction -= 1;
        }
        if fraction > 0 {
            for _ in 0..fraction {
                put(text, digit(m));
                m /= 10;
            }
            put(text, b'.');
        }
    }
    // The whole part, at least one digit.
    let mut start = put(text, digit(m));
    m /= 10;
    while m > 0 {
        start = put(text, digit(m));
        m /= 10;
    }
    if x < 0.0 {
        start = put(text, b'-');
    }
    Some(start)
}

/// ⌊log₁₀ a⌋ for `a` in [10⁻¹⁵, 10¹⁵): the largest i with `pow10[i + 15]`
/// ≤ a (`pow10` the doubles nearest 10⁻¹⁵..10¹⁵), a binary search's answer
/// without its unpredictable branches. From a's binary exponent b:
/// ⌊b·log₁₀ 2⌋ (1233 / 4096) is never above it (10^⌊b·log₁₀ 2⌋ ≤ 2^b ≤ a,
/// by at least 2.4% for b ≠ 0 in this range, far beyond the doubles'
/// rounding) and at most one below: moved up to the table's boundary.
fn decimal_exponent(a: f64, pow10: &[f64]) -> i32 {
    let binary = ((a.to_bits() >> 52) & 0x7FF) as i32 - 1023;
    let mut e = ((binary * 1233) >> 12).clamp(-15, 14);
    while e < 14 && pow10[(e + 16) as usize] <= a {
        e += 1;
    }
    e
}

/// `v.round() as u64` for v in [0, 2⁵³), without `f64::round` (a library
/// call on the baseline x86-64 target): there v − ⌊v⌋ is exact, and half
/// rounds away from zero.
fn round_below_2_53(v: f64) -> u64 {
    let whole = v as u64;
    if v - whole as f64 >= 0.5 {
        whole + 1
    } else {
        whole
    }
}

/// Whether Ryū's digits of `x` are certainly `Display`'s. They differ only
/// on a tie — `x` exactly halfway between two shortest candidates (Ryū
/// rounds it to even, `Display` up: 598329402048065.25 → …065.2 / …065.3),
/// which needs `x`'s exact decimal expansion to end one digit after the
/// shortest digits, so to have at most 18 significant digits. Writing
/// `x = m·2^e` with `m` odd: an integer below 2^53 is written exactly (no
/// tie); for `e < 0` the expansion has the digits of `m·5^−e`, at least
/// ⌊log₁₀ m⌋ + ⌊−e·log₁₀ 5⌋ + 1; everything else goes to `Display`.
fn ryu_agrees(x: f64) -> bool {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mut m, mut e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    if m == 0 {
        return true;
    }
    let zeros = m.trailing_zeros();
    m >>= zeros;
    e += i64::from(zeros);
    if e >= 0 {
        return x.abs() < 9_007_199_254_740_992.0;
    }
    // ⌊log₁₀ m⌋ ≥ ⌊(bits − 1)·log₁₀ 2⌋; one digit of margin over the 18 a
    // tie needs, for rounding.
    let width = f64::from(63 - m.leading_zeros());
    let log10_5 = 1.0 - std::f64::consts::LOG10_2;
    let digits =
        (width * std::f64::consts::LOG10_2).floor() + ((-e) as f64 * log10_5).floor() + 1.0;
    digits >= 20.0
}

/// Writes `x` (finite) into `out` exactly as Rust's `Display` does — the
/// shortest digits that round-trip, in plain decimal notation, never an
/// exponent (`1`, `0.25`, `-0`, `10000000000000000`, `0.0000001`) — from
/// Ryū's shortest digits, several times faster on the CSV hot path
/// (`timeseries.csv` writes millions). Both algorithms give the shortest
/// round-trip digits closest to `x`; only the layout differs, which this
/// rewrites.
pub fn shortest_into(x: f64, out: &mut String) {
    if !ryu_agrees(x) {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        let _ = write!(out, "{x}");
        return;
    }
    let mut buf = ryu::Buffer::new();
    let text = buf.format_finite(x);
    if !text.contains('e') {
        // Ryū's plain form (1e-5 ≤ |x| < 1e16) is Display's but for the
        // ".0" it gives integers.
        out.push_str(text.strip_suffix(".0").unwrap_or(text));
        return;
    }
    let (negative, text) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let (mantissa, exp) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    // digits × 10^(point − len): the decimal point sits `point` digits in.
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = || int.bytes().chain(frac.bytes());
    let lead = digits().take_while(|&d| d == b'0').count();
    let total = int.len() + frac.len();
    if negative {
        out.push('-');
    }
    if lead == total {
        out.push('0');
        return;
    }
    let trail = digits().rev().take_while(|&d| d == b'0').count();
    let point = int.len() as i32 + exp - lead as i32;
    let sig: Vec<u8> = digits().skip(lead).take(total - lead - trail).collect();
    let n = sig.len() as i32;
    let push_zeros =
        |out: &mut String, k: i32| out.extend(std::iter::repeat_n('0', k.max(0) as usize));
    if point <= 0 {
        out.push_str("0.");
        push_zeros(out, -point);
        out.extend(sig.iter().map(|&b| b as char));
    } else if point >= n {
        out.extend(sig.iter().map(|&b| b as char));
        push_zeros(out, point - n);
    } else {
        let (a, b) = sig.split_at(point as usize);
        out.extend(a.iter().map(|&b| b as char));
        out.push('.');
        out.extend(b.iter().map(|&b| b as char));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marsaglia's xorshift64 from `state`: the tests' random bits.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn sig3_keeps_three_significant_figures_across_magnitudes() {
        let cases = [
            (0.001234, "0.00123"),
            (0.1, "0.100"),
            (1.2345, "1.23"),
            (12.345, "12.3"),
            (123.45, "123"),
            (999.6, "1,000"),
            (1234.5, "1,230"),
            (1e6, "1,000,000"),
        ];
        for (x, want) in cases {
            assert_eq!(sig3(x), want, "sig3({x})");
        }
        assert_eq!(sig3(f64::NAN), "n/a");
    }

    #[test]
    fn bytes_switch_units_after_rounding() {
        assert_eq!(bytes(999.4), "999 B");
        assert_eq!(bytes(5.0), "5 B");
        assert_eq!(bytes(999.6), "1.00 KB");
        assert_eq!(bytes(1_200.0), "1.20 KB");
        assert_eq!(bytes(400_000.0), "400 KB");
        assert_eq!(bytes(-2_000.0), "-2.00 KB");
        assert_eq!(bytes_short(2.5e12), "2.5 TB");
    }

    #[test]
    fn round_binary_limits_read_as_documented() {
        assert_eq!(bytes(409_600.0), "400 KiB"); // DynamoDB item
        assert_eq!(bytes(100.0 * 1024.0 * 1024.0), "100 MiB"); // Cassandra warning
        assert_eq!(bytes(10.0 * 1024.0 * 1024.0 * 1024.0), "10 GiB"); // LSI collection
        assert_eq!(bytes(1024.0), "1 KiB");
        // Decimal values stay decimal, even when 1024 divides them.
        assert_eq!(bytes(1e10), "10.0 GB");
        assert_eq!(bytes(6e9), "6.00 GB");
        assert_eq!(bytes(20e9), "20.0 GB");
    }

    #[test]
    fn shortest_into_writes_what_display_writes() {
        // Edge values, then 10⁶ random bit patterns (every exponent) and 10⁶
        // random values of the magnitudes the CSVs hold: byte-identical to
        // `format!("{x}")`, so the CSVs keep their bytes.
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.25,
            1e15,
            1e16,
            1e17,
            1.5e300,
            1e-5,
            1e-6,
            1e-7,
            123456.789,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            9007199254740993.0,
        ];
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
        // Short binary fractions of large numbers: where ties live.
        for k in 0..12 {
            for _ in 0..20_000 {
                let n = (next() >> 12) as f64;
                values.push(n + (next() % (1 << k)) as f64 / (1u64 << k) as f64);
                values.push((next() % 1_000_000) as f64 / (1u64 << (k + 10)) as f64);
            }
        }
        for _ in 0..1_000_000 {
            let x = f64::from_bits(next());
            if x.is_finite() {
                values.push(x);
            }
            let y = (next() >> 11) as f64 / (1u64 << 53) as f64;
            values.push(y * 10f64.powi((next() % 24) as i32 - 8));
        }
        let mut out = String::new();
        for x in values {
            out.clear();
            shortest_into(x, &mut out);
            assert_eq!(out, format!("{x}"), "bits {:#x}", x.to_bits());
        }
    }

    #[test]
    fn the_exponent_and_rounding_shortcuts_are_the_plain_ones() {
        // Against the binary search and f64::round they replace, on every
        // power of ten and its neighbours and on random values of every
        // magnitude (and fractions of exactly one half).
        let pow10: Vec<f64> = (-15..=15)
            .map(|i| format!("1e{i}").parse().unwrap())
            .collect();
        let plain = |a: f64| pow10.partition_point(|&p| p <= a) as i32 - 16;
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut values: Vec<f64> = pow10
            .iter()
            .flat_map(|&p| {
                [
                    p,
                    f64::from_bits(p.to_bits() - 1),
                    f64::from_bits(p.to_bits() + 1),
                ]
            })
            .filter(|&a| (pow10[0]..pow10[30]).contains(&a))
            .collect();
        values.extend((0..200_000).map(|_| {
            let y = (next() >> 11) as f64 / (1u64 << 53) as f64;
            (y * 10f64.powi((next() % 31) as i32 - 15)).max(pow10[0])
        }));
        for a in values.into_iter().filter(|&a| a < pow10[30]) {
            assert_eq!(decimal_exponent(a, &pow10), plain(a), "{a:e}");
        }
        for _ in 0..200_000 {
            let v = (next() >> 11) as f64 / (1u64 << (next() % 53)) as f64;
            let half = (next() % (1 << 40)) as f64 + 0.5;
            for x in [v, half, v.floor()] {
                assert_eq!(round_below_2_53(x), x.round() as u64, "{x}");
            }
        }
    }

    #[test]
    fn significant_into_writes_the_correctly_rounded_decimal() {
        // Against Rust's exact `{:.5e}` (the correctly rounded six-digit
        // decimal), parsed back and written shortest: 10⁶ values over every
        // magnitude the rounding covers, and the edges by hand.
        let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut out = String::new();
        let mut bytes = Vec::new();
        let mut check = |x: f64, want: &str| {
            out.clear();
            significant_into(x, 6, &mut out);
            assert_eq!(out, want, "bits {:#x}", x.to_bits());
            // The file's byte writer writes the same text.
            bytes.clear();
            significant_bytes_into(x, 6, &mut bytes);
            assert_eq!(bytes, want.as_bytes(), "bits {:#x}", x.to_bits());
        };
        for (x, want) in [
            (0.0, "0"),
            (-0.0, "-0"),
            (999_999.5, "1000000"),
            (0.49499999999999994, "0.495"),
            (1234567.8, "1234570"),
            (-2.5e-9, "-0.0000000025"),
            (1e15, "1000000000000000"),
            (f64::INFINITY, "inf"),
        ] {
            check(x, want);
        }
        for _ in 0..1_000_000 {
            let y = (next() >> 11) as f64 / (1u64 << 53) as f64;
            let x = y * 10f64.powi((next() % 30) as i32 - 15);
            let x = if next().is_multiple_of(2) { x } else { -x };
            if x == 0.0 || x.abs() < 1e-15 {
                continue;
            }
            let exact: f64 = format!("{x:.5e}").parse().unwrap_or(f64::NAN);
            check(x, &format!("{exact}"));
        }
    }
}

//! Cassandra's `Murmur3Partitioner` token: MurmurHash3 x64 128-bit, seed 0,
//! of the serialized partition key, first 64-bit half read as a signed `i64`.
//!
//! Written from the descriptions in Cassandra's
//! `src/java/org/apache/cassandra/utils/MurmurHash.java` (`hash3_x64_128`) and
//! `src/java/org/apache/cassandra/dht/Murmur3Partitioner.java` (`getToken`,
//! `normalize`), and the DataStax Python driver's `cassandra/cmurmur3.c` /
//! `cassandra/murmur3.py`. Two details differ from the canonical MurmurHash3
//! (Austin Appleby's `MurmurHash3_x64_128`, as in `smhasher` or `mmh3`):
//!
//! - **Signed tail bytes.** The 16-byte body blocks are read as little-endian
//!   unsigned 64-bit words, as in the canonical hash, but the 1–15 tail bytes
//!   are Java `byte`s: each is sign-extended to 64 bits before it is shifted
//!   into place. A tail byte ≥ 0x80 therefore sets every higher bit of its
//!   word, and the hash of any key whose tail holds such a byte differs from
//!   the canonical one. Keys whose tail is ASCII hash identically.
//! - **Token normalization.** `getToken` maps an empty key to the ring's
//!   minimum token `Long.MIN_VALUE` (Cassandra rejects empty partition keys,
//!   and `MINIMUM` is reserved so that the range `(MINIMUM, t]` selects every
//!   key up to `t`), and a hash equal to `Long.MIN_VALUE` to `Long.MAX_VALUE`.
//!
//! Key serialization: a single-column partition key is its value's bytes —
//! a `text` key is its UTF-8 bytes, which is what keyheat places (its
//! `partition_key` template renders one text key). A composite partition key
//! `(a, b, …)` would be serialized with Cassandra's composite encoding (each
//! component as a 2-byte big-endian length, the bytes, then a 0 end-of-component
//! byte) before hashing; keyheat does not model column types, so a template
//! such as `CHANNEL#{channel}#{bucket}` stands for one text column.
//!
//! The test vectors in `tests/fixtures/murmur3/vectors.csv` were produced by
//! the DataStax Python driver (`cassandra-driver`, its C extension
//! `cassandra.cmurmur3`, cross-checked against its pure-Python `_murmur3`).

use super::hash::fmix64;

/// First multiplication constant of MurmurHash3 x64 128.
const C1: u64 = 0x87c3_7b91_1142_53d5;
/// Second multiplication constant of MurmurHash3 x64 128.
const C2: u64 = 0x4cf5_ad43_2745_937f;

/// The ring's minimum token, `Long.MIN_VALUE`: never the token of a non-empty key.
pub const MIN_TOKEN: i64 = i64::MIN;
/// The ring's maximum token, `Long.MAX_VALUE`.
pub const MAX_TOKEN: i64 = i64::MAX;

/// How the tail bytes (the last `len % 16`) enter the hash.
#[derive(Clone, Copy)]
enum Tail {
    /// Canonical MurmurHash3: bytes are unsigned.
    Unsigned,
    /// Cassandra / Java: bytes are sign-extended `byte`s.
    Signed,
}

#[inline]
fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

#[inline]
fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// A tail byte widened to 64 bits the way `tail` says.
#[inline]
fn widen(b: u8, tail: Tail) -> u64 {
    match tail {
        Tail::Unsigned => u64::from(b),
        // `as i8` reinterprets the byte as Java's signed byte; `as u64` keeps
        // the sign-extended bit pattern.
        Tail::Signed => i64::from(b as i8) as u64,
    }
}

fn hash128(bytes: &[u8], seed: u64, tail: Tail) -> [u64; 2] {
    let mut h1 = seed;
    let mut h2 = seed;
    let mut blocks = bytes.chunks_exact(16);
    for block in blocks.by_ref() {
        let mut lo = [0u8; 8];
        let mut hi = [0u8; 8];
        lo.copy_from_slice(&block[..8]);
        hi.copy_from_slice(&block[8..]);
        let k1 = u64::from_le_bytes(lo);
        let k2 = u64::from_le_bytes(hi);

        h1 ^= mix_k1(k1);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(k2);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }

    let rest = blocks.remainder();
    if rest.len() > 8 {
        let mut k2 = 0u64;
        for (i, &b) in rest[8..].iter().enumerate() {
            k2 ^= widen(b, tail) << (8 * i);
        }
        h2 ^= mix_k2(k2);
    }
    if !rest.is_empty() {
        let mut k1 = 0u64;
        for (i, &b) in rest.iter().take(8).enumerate() {
            k1 ^= widen(b, tail) << (8 * i);
        }
        h1 ^= mix_k1(k1);
    }

    let len = bytes.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    [h1, h2]
}

/// Canonical MurmurHash3 x64 128 (Appleby's `MurmurHash3_x64_128`) of
/// `bytes` with `seed`, as its two 64-bit halves. Not what Cassandra computes
/// for keys with a tail byte ≥ 0x80: see [`cassandra_x64_128`].
///
/// ```
/// use keyheat::store::murmur3::murmur3_x64_128;
/// // The canonical hash of the empty input with seed 0 is all zeros.
/// assert_eq!(murmur3_x64_128(b"", 0), [0, 0]);
/// // mmh3.hash64(b"hello", signed=False) = (0xcbd8a7b341bd9b02, 0x5b1e906a48ae1d19)
/// assert_eq!(murmur3_x64_128(b"hello", 0), [0xcbd8a7b341bd9b02, 0x5b1e906a48ae1d19]);
/// ```
pub fn murmur3_x64_128(bytes: &[u8], seed: u64) -> [u64; 2] {
    hash128(bytes, seed, Tail::Unsigned)
}

/// MurmurHash3 x64 128 as Cassandra's `MurmurHash.hash3_x64_128` computes it
/// (tail bytes sign-extended), as its two halves `[h1, h2]` read as `i64`.
///
/// ```
/// use keyheat::store::murmur3::{cassandra_x64_128, murmur3_x64_128};
/// // ASCII keys hash as the canonical MurmurHash3 does ...
/// let c = cassandra_x64_128(b"hello", 0);
/// let m = murmur3_x64_128(b"hello", 0);
/// assert_eq!([c[0] as u64, c[1] as u64], m);
/// // ... a tail byte >= 0x80 makes them differ.
/// assert_ne!(cassandra_x64_128(b"\xfe", 0)[0] as u64, murmur3_x64_128(b"\xfe", 0)[0]);
/// ```
pub fn cassandra_x64_128(bytes: &[u8], seed: u64) -> [i64; 2] {
    let [h1, h2] = hash128(bytes, seed, Tail::Signed);
    [h1 as i64, h2 as i64]
}

/// The first half of [`cassandra_x64_128`] with seed 0: what the Python
/// driver's `cassandra.murmur3.murmur3(bytes)` returns (no normalization).
///
/// ```
/// // Published in the DataStax Python driver's tests/unit/test_metadata.py.
/// assert_eq!(keyheat::store::murmur3::murmur3_h1(b"123"), -7468325962851647638);
/// ```
pub fn murmur3_h1(bytes: &[u8]) -> i64 {
    cassandra_x64_128(bytes, 0)[0]
}

/// The `Murmur3Partitioner` token of a serialized partition key, in
/// `[MIN_TOKEN, MAX_TOKEN]`: [`MIN_TOKEN`] for the empty key, otherwise
/// [`murmur3_h1`] with `Long.MIN_VALUE` moved to `Long.MAX_VALUE`.
///
/// ```
/// use keyheat::store::murmur3::{token, MIN_TOKEN};
/// assert_eq!(token(b""), MIN_TOKEN);
/// assert_eq!(token(b"\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe"), -8927430733708461935);
/// ```
pub fn token(key: &[u8]) -> i64 {
    if key.is_empty() {
        return MIN_TOKEN;
    }
    normalize(murmur3_h1(key))
}

/// `Murmur3Partitioner.normalize`: `Long.MIN_VALUE` is reserved for the
/// ring's minimum, so a hash equal to it becomes `Long.MAX_VALUE`.
///
/// ```
/// use keyheat::store::murmur3::normalize;
/// assert_eq!(normalize(i64::MIN), i64::MAX);
/// assert_eq!(normalize(-1), -1);
/// ```
pub fn normalize(h: i64) -> i64 {
    if h == MIN_TOKEN {
        MAX_TOKEN
    } else {
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The five values published in the DataStax Python driver's
    /// `tests/unit/test_metadata.py` (`Murmur3TokensTest._verify_hash`).
    #[test]
    fn python_driver_published_values() {
        assert_eq!(murmur3_h1(b"123"), -7_468_325_962_851_647_638);
        assert_eq!(
            murmur3_h1(&b"\x00\xff\x10\xfa\x99".repeat(10)),
            5_837_342_703_291_459_765
        );
        assert_eq!(murmur3_h1(&[0xfe; 8]), -8_927_430_733_708_461_935);
        assert_eq!(murmur3_h1(&[0x10; 8]), 1_446_172_840_243_228_796);
        assert_eq!(
            murmur3_h1(i64::MAX.to_string().as_bytes()),
            7_162_290_910_810_015_547
        );
    }

    #[test]
    fn signed_tail_differs_from_canonical_only_for_high_tail_bytes() {
        // 16 bytes ≥ 0x80 form one body block and no tail: identical.
        let block = [0xfeu8; 16];
        let c = cassandra_x64_128(&block, 0);
        assert_eq!([c[0] as u64, c[1] as u64], murmur3_x64_128(&block, 0));
        // One more such byte lands in the tail: they differ.
        let mut longer = block.to_vec();
        longer.push(0xfe);
        assert_ne!(
            cassandra_x64_128(&longer, 0)[0] as u64,
            murmur3_x64_128(&longer, 0)[0]
        );
        // A high byte in the body and an ASCII tail: identical again.
        let mut mixed = block.to_vec();
        mixed.extend_from_slice(b"abc");
        let c = cassandra_x64_128(&mixed, 0);
        assert_eq!([c[0] as u64, c[1] as u64], murmur3_x64_128(&mixed, 0));
    }

    #[test]
    fn canonical_values_from_mmh3() {
        // mmh3 5.3.1 (PyPI), mmh3.hash64(b"hello", 0, signed=False).
        assert_eq!(
            murmur3_x64_128(b"hello", 0),
            [0xcbd8_a7b3_41bd_9b02, 0x5b1e_906a_48ae_1d19]
        );
    }

    #[test]
    fn token_normalizes_like_murmur3_partitioner() {
        assert_eq!(token(b""), MIN_TOKEN);
        assert_eq!(normalize(MIN_TOKEN), MAX_TOKEN);
        assert_eq!(normalize(0), 0);
        assert_eq!(token(b"123"), -7_468_325_962_851_647_638);
    }
}

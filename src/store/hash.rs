//! Hash placement for stores whose hash function is internal (DynamoDB) or
//! abstract (generic): FNV-1a 64 over the key's UTF-8 bytes, finished with
//! MurmurHash3's `fmix64` so every output bit depends on every input bit, then
//! mapped onto `partitions` equal ranges of the 64-bit hash space (as
//! DynamoDB splits its hash range).
//!
//! DynamoDB does not publish its hash; any well-mixed 64-bit hash gives the
//! same placement statistics, which is all keyheat predicts.

/// FNV-1a 64-bit offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A hasher for keys that are already well mixed ([`fmix64`]): the key is
/// the hash (a map keyed by such hashes skips hashing them again).
#[derive(Default)]
pub struct Premixed(u64);

impl std::hash::Hasher for Premixed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// MurmurHash3's 64-bit finaliser.
///
/// ```
/// assert_eq!(keyheat::store::hash::fmix64(0), 0);
/// ```
pub fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

/// FNV-1a 64 of `bytes`, finished with [`fmix64`].
///
/// ```
/// // FNV-1a 64 of "" is the offset basis; of "a" is 0xaf63dc4c8601ec8c.
/// use keyheat::store::hash::{fmix64, key_hash};
/// assert_eq!(key_hash(b""), fmix64(0xcbf29ce484222325));
/// assert_eq!(key_hash(b"a"), fmix64(0xaf63dc4c8601ec8c));
/// ```
pub fn key_hash(bytes: &[u8]) -> u64 {
    fmix64(fnv_extend(FNV_OFFSET, bytes))
}

/// The FNV-1a 64 state after `bytes`, from `state` (the offset basis at
/// the start of a key): a key's text hashed in pieces, its shared prefix
/// once, gives [`key_hash`]'s value unfinished.
///
/// ```
/// use keyheat::store::hash::{fmix64, fnv_extend, key_hash, FNV_OFFSET};
/// let prefix = fnv_extend(FNV_OFFSET, b"VEH#42#H#");
/// assert_eq!(fmix64(fnv_extend(prefix, b"1017")), key_hash(b"VEH#42#H#1017"));
/// ```
pub fn fnv_extend(state: u64, bytes: &[u8]) -> u64 {
    let mut h = state;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

/// Maps a 64-bit hash onto `0..n` by multiply-shift (Lemire's fastrange): hash
/// range `[i·2⁶⁴/n, (i+1)·2⁶⁴/n)` goes to partition `i`.
///
/// ```
/// use keyheat::store::hash::range_of;
/// assert_eq!(range_of(0, 10), 0);
/// assert_eq!(range_of(u64::MAX, 10), 9);
/// ```
pub fn range_of(hash: u64, n: usize) -> usize {
    ((u128::from(hash) * n as u128) >> 64) as usize
}

/// The partition `key` lands on among `partitions` equal hash ranges.
pub fn place(key: &str, partitions: usize) -> usize {
    range_of(key_hash(key.as_bytes()), partitions.max(1))
}

/// [`place`] with the hash re-mixed by `salt` (a different, equally uniform
/// placement per salt; salt 0 is not special).
pub fn place_salted(key: &str, partitions: usize, salt: u64) -> usize {
    place_salted_state(fnv_extend(FNV_OFFSET, key.as_bytes()), partitions, salt)
}

/// [`place_salted`] of a key whose text's FNV-1a state is `state`
/// ([`fnv_extend`] from the offset basis over the whole key).
pub fn place_salted_state(state: u64, partitions: usize, salt: u64) -> usize {
    range_of(fmix64(fmix64(state) ^ salt), partitions.max(1))
}

//! CRC-16/XMODEM, the checksum Redis Cluster hashes keys with.
//!
//! Parameters (Redis `src/crc16.c`, which names it "XMODEM, also known as
//! ZMODEM, CRC-16/ACORN"): width 16, polynomial 0x1021 (x¹⁶ + x¹² + x⁵ + 1),
//! initial value 0, input and output not reflected, no final XOR. Check value:
//! CRC of the ASCII bytes `"123456789"` is `0x31C3`.

/// The byte-at-a-time lookup table for polynomial 0x1021, built at compile time.
const TABLE: [u16; 256] = build_table();

const fn build_table() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = (i as u16) << 8;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
}

/// CRC-16/XMODEM of `bytes`.
///
/// ```
/// use keyheat::store::crc16::crc16_xmodem;
/// assert_eq!(crc16_xmodem(b"123456789"), 0x31C3); // the published check value
/// assert_eq!(crc16_xmodem(b""), 0);
/// ```
pub fn crc16_xmodem(bytes: &[u8]) -> u16 {
    bytes.iter().fold(0u16, |crc, &b| {
        (crc << 8) ^ TABLE[usize::from(((crc >> 8) as u8) ^ b)]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-at-a-time reference implementation, straight from the definition.
    fn bitwise(bytes: &[u8]) -> u16 {
        let mut crc: u16 = 0;
        for &b in bytes {
            crc ^= u16::from(b) << 8;
            for _ in 0..8 {
                crc = if crc & 0x8000 != 0 {
                    (crc << 1) ^ 0x1021
                } else {
                    crc << 1
                };
            }
        }
        crc
    }

    #[test]
    fn published_check_value() {
        assert_eq!(crc16_xmodem(b"123456789"), 0x31C3);
    }

    #[test]
    fn table_matches_the_first_entries_of_redis_crc16tab() {
        // Redis src/crc16.c crc16tab[0..8] and [8..16].
        assert_eq!(
            TABLE[..16],
            [
                0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7, 0x8108, 0x9129,
                0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef
            ]
        );
        assert_eq!(TABLE[255], 0x1ef0);
    }

    #[test]
    fn table_driven_equals_bitwise_definition() {
        let mut x: u32 = 0x1234_5678;
        for len in 0..200usize {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect();
            assert_eq!(crc16_xmodem(&bytes), bitwise(&bytes), "length {len}");
        }
    }
}

//! Join codes, teacher tokens and student keys.
//!
//! A join code is read aloud and typed on a phone, so it is short and
//! uses no letters or digits that look alike (no `0`/`O`, `1`/`I`/`L`).
//! A teacher token and a student key are secrets: 128 random bits from
//! the operating system's generator, in hex; nobody types them.

use rand::RngCore;

/// The letters and digits of a join code: none that look alike.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Characters in a join code.
pub const CODE_LEN: usize = 6;

/// A fresh join code.
pub fn new_code(rng: &mut dyn RngCore) -> String {
    (0..CODE_LEN)
        .map(|_| {
            // 31 letters: reject the top of the byte range so each is equally likely.
            loop {
                let b = (rng.next_u32() & 0xff) as usize;
                if b < 31 * 8 {
                    return CODE_ALPHABET[b % CODE_ALPHABET.len()] as char;
                }
            }
        })
        .collect()
}

/// A join code as typed: trimmed and in capitals (`ab3k7p` joins `AB3K7P`).
pub fn normalise_code(typed: &str) -> String {
    typed.trim().to_ascii_uppercase()
}

/// A fresh secret: 128 random bits as 32 hex digits.
pub fn new_secret(rng: &mut dyn RngCore) -> String {
    let mut bytes = [0u8; 16];
    rng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares a given secret with the real one in time that does not
/// depend on where they first differ (a guesser learns nothing from
/// how long a refusal takes).
pub fn same_secret(given: &str, real: &str) -> bool {
    let (a, b) = (given.as_bytes(), real.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn codes_use_the_unambiguous_alphabet_and_secrets_are_128_bits() {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..200 {
            let c = new_code(&mut rng);
            assert_eq!(c.len(), CODE_LEN);
            assert!(c.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{c}");
            assert!(!c.contains(['0', 'O', '1', 'I', 'L']));
        }
        let s = new_secret(&mut rng);
        assert_eq!(s.len(), 32);
        assert!(s.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(same_secret(&s, &s.clone()));
        assert!(!same_secret(&s[..31], &s));
        assert!(!same_secret(&new_secret(&mut rng), &s));
        assert_eq!(normalise_code(" ab3k7p "), "AB3K7P");
    }
}

//! The two small hashes the library uses, each in one place.
//!
//! - [`Fnv1a`]: a stable 64-bit hash of a few bytes (FNV-1a). Stable matters where the value is kept or
//!   compared across runs and machines: the cross-validation fold of a page, the signature of an
//!   element that `auto` compares with its siblings'. The standard library's hasher is seeded per
//!   process and may change between releases, so it can serve neither.
//! - [`fmix64`]: MurmurHash3's 64-bit finaliser, which makes every bit of a hash depend on every bit of
//!   its input (the content fingerprint needs each of its 64 bits to be a fair coin; FNV-1a's low bits
//!   depend only on the low bits of the bytes fed); the tokenizer's name cache picks its slots with it.
//! - [`IdMap`]: a hash map keyed by node ids and other small integers, with multiplicative (Fibonacci)
//!   hashing. The standard hasher resists flooding attacks a page cannot mount here (its keys are arena
//!   indices we assign), and costs several times more.

/// FNV-1a over bytes fed one at a time.
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a::new()
    }
}

impl Fnv1a {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;

    pub const fn new() -> Self {
        Fnv1a(Self::OFFSET)
    }

    /// Mix in one byte.
    #[inline]
    pub fn byte(&mut self, b: u8) {
        self.0 ^= u64::from(b);
        self.0 = self.0.wrapping_mul(Self::PRIME);
    }

    /// Mix in bytes, in order.
    #[inline]
    pub fn bytes(&mut self, bytes: impl IntoIterator<Item = u8>) {
        for b in bytes {
            self.byte(b);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// The 64-bit finaliser of MurmurHash3 (Appleby): two xor-shift-multiply rounds. A bijection, fixed by
/// its published constants, so stable wherever its value is kept.
pub const fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

/// A hash map keyed by node ids and other small integers (see the module doc).
pub type IdMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<IdHasher>>;

/// Multiplicative hashing of integers written to it (Fibonacci hashing).
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_reference_values() {
        // Published FNV-1a 64 test vectors: "" and "a".
        assert_eq!(Fnv1a::new().finish(), 0xcbf2_9ce4_8422_2325);
        let mut h = Fnv1a::new();
        h.bytes(*b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn fmix64_reference_values() {
        // Zero is its fixed point; one and the FNV-1a offset basis as the reference algorithm gives them
        // (computed apart from this code).
        assert_eq!(fmix64(0), 0);
        assert_eq!(fmix64(1), 0xb456_bcfc_34c2_cb2c);
        assert_eq!(fmix64(0xcbf2_9ce4_8422_2325), 0xefd0_1f60_ba99_2926);
    }
}

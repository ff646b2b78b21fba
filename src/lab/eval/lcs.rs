//! Longest common subsequence of two word sequences, bit-parallel.
//!
//! Gold texts reach 20,000 words, so the O(n·m) table (400 million cells, and as many bytes or more)
//! is out of the question. The bit-parallel formulation (Allison & Dix 1986, in Hyyrö's 2004 form)
//! keeps one row of the table as a bit vector over the shorter sequence and updates it with a handful
//! of word operations per 64 columns: O(n·⌈m/64⌉) time, O(m) memory.
//!
//! Row encoding: after reading `a[..i]`, bit `j` of `V` is 0 exactly where `L[i][j+1] = L[i][j] + 1`,
//! so `L[i][j]` is the number of zero bits below `j` and the LCS length is the number of zero bits.
//! Update for symbol `x` with match mask `M` (bits `j` where `b[j] = x`):
//! `X = V & M; V' = (V + X) | (V & !M)`, the addition carrying across the words of the vector.
//!
//! The length metric of Thanadechteemapat & Fung needs *which* words matched (their characters are summed), so
//! [`alignment`] also recovers one LCS. It walks back through stored rows; to keep memory bounded on
//! long pages it stores only every `B`-th row (`B ≈ √n`) and recomputes one band of `B` rows at a time
//! during the walk: O(√n·m/64) words of memory for twice the forward time.

use std::collections::HashMap;

/// Symbol ids: any `u32`; equal ids match.
type Sym = u32;

/// Per-symbol positions in the short sequence, from which match masks are built on the fly (a dense
/// mask table would cost distinct-words × m/64 words: 12 MB for a 20,000-word page). Symbols of the
/// long sequence that the short one lacks find no entry and leave the row unchanged.
struct Positions {
    /// Symbol → range of `pos`.
    index: HashMap<Sym, (u32, u32)>,
    pos: Vec<u32>,
}

impl Positions {
    fn new(b: &[Sym]) -> Positions {
        let mut order: Vec<u32> = (0..b.len() as u32).collect();
        order.sort_by_key(|&j| (b[j as usize], j));
        let mut index = HashMap::new();
        let mut k = 0;
        while k < order.len() {
            let s = b[order[k] as usize];
            let start = k;
            while k < order.len() && b[order[k] as usize] == s {
                k += 1;
            }
            index.insert(s, (start as u32, k as u32));
        }
        Positions { index, pos: order }
    }

    fn of(&self, s: Sym) -> &[u32] {
        match self.index.get(&s) {
            Some(&(start, end)) => &self.pos[start as usize..end as usize],
            None => &[],
        }
    }
}

/// One bit-parallel row update. `scratch` must be all zeros on entry and is left all zeros.
fn step(v: &mut [u64], positions: &[u32], scratch: &mut [u64]) {
    if positions.is_empty() {
        return;
    }
    for &j in positions {
        scratch[(j / 64) as usize] |= 1u64 << (j % 64);
    }
    let mut carry = 0u64;
    for (w, m) in v.iter_mut().zip(scratch.iter_mut()) {
        let x = *w & *m;
        let (s1, c1) = w.overflowing_add(x);
        let (s2, c2) = s1.overflowing_add(carry);
        carry = u64::from(c1 || c2);
        *w = s2 | (*w & !*m);
        *m = 0;
    }
}

/// The all-ones starting row for `m` columns (bits past `m` stay set, so they never count as zeros).
fn first_row(m: usize) -> Vec<u64> {
    vec![u64::MAX; m.div_ceil(64).max(1)]
}

fn zeros(v: &[u64], m: usize) -> usize {
    let total: usize = v.iter().map(|w| w.count_zeros() as usize).sum();
    // Bits at and beyond `m` start as ones; a carry out of bit m-1 could clear one, so mask them out.
    let tail = v.len() * 64 - m;
    let tail_zeros = if tail == 0 {
        0
    } else {
        let last = v[v.len() - 1];
        let mask = !0u64 << (64 - tail);
        (!last & mask).count_ones() as usize
    };
    total - tail_zeros
}

/// Length of the longest common subsequence of `a` and `b`.
pub fn lcs_len(a: &[Sym], b: &[Sym]) -> usize {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return 0;
    }
    let pos = Positions::new(short);
    let mut v = first_row(short.len());
    let mut scratch = vec![0u64; v.len()];
    for &s in long {
        step(&mut v, pos.of(s), &mut scratch);
    }
    zeros(&v, short.len())
}

fn bit(v: &[u64], j: usize) -> bool {
    v[j / 64] >> (j % 64) & 1 == 1
}

/// One longest common subsequence, as index pairs `(i, j)` with `a[i] == b[j]`, both increasing.
pub fn alignment(a: &[Sym], b: &[Sym]) -> Vec<(usize, usize)> {
    let swapped = a.len() < b.len();
    let (long, short) = if swapped { (b, a) } else { (a, b) };
    if short.is_empty() {
        return Vec::new();
    }
    let (n, m) = (long.len(), short.len());
    let pos = Positions::new(short);
    let words = first_row(m).len();
    let mut scratch = vec![0u64; words];

    // Forward pass, keeping the row before every band: checkpoint k is the row after `long[..k·band]`.
    let band = n.isqrt().max(1);
    let mut checkpoints: Vec<Vec<u64>> = Vec::with_capacity(n / band + 1);
    let mut v = first_row(m);
    for (i, &s) in long.iter().enumerate() {
        if i % band == 0 {
            checkpoints.push(v.clone());
        }
        step(&mut v, pos.of(s), &mut scratch);
    }

    // Backward walk from (n, m). Within a band, rows[r] is the row after `long[..start + r]`.
    let mut out = Vec::with_capacity(zeros(&v, m));
    let (mut i, mut j) = (n, m);
    let mut rows: Vec<Vec<u64>> = Vec::with_capacity(band + 1);
    while i > 0 && j > 0 {
        let k = (i - 1) / band;
        let start = k * band;
        rows.clear();
        let mut row = checkpoints[k].clone();
        rows.push(row.clone());
        for &s in &long[start..i] {
            step(&mut row, pos.of(s), &mut scratch);
            rows.push(row.clone());
        }
        while i > start && j > 0 {
            if long[i - 1] == short[j - 1] {
                out.push((i - 1, j - 1));
                i -= 1;
                j -= 1;
            } else if bit(&rows[i - start], j - 1) {
                // Bit j-1 set: L[i][j-1] == L[i][j], so the column can be dropped.
                j -= 1;
            } else {
                // L[i][j-1] < L[i][j] and the symbols differ, so L[i-1][j] == L[i][j].
                i -= 1;
            }
        }
    }
    out.reverse();
    if swapped {
        for p in &mut out {
            *p = (p.1, p.0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::adversarial::fuzz::Rng;

    /// The plain dynamic-programming table, as the reference.
    fn dp(a: &[Sym], b: &[Sym]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        for &x in a {
            let mut cur = vec![0usize; b.len() + 1];
            for (j, &y) in b.iter().enumerate() {
                cur[j + 1] = if x == y { prev[j] + 1 } else { prev[j + 1].max(cur[j]) };
            }
            prev = cur;
        }
        prev[b.len()]
    }

    fn check_alignment(a: &[Sym], b: &[Sym], pairs: &[(usize, usize)]) {
        for w in pairs.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "pairs not increasing: {pairs:?}");
        }
        for &(i, j) in pairs {
            assert_eq!(a[i], b[j]);
        }
    }

    #[test]
    fn small_known_cases() {
        assert_eq!(lcs_len(&[], &[1, 2]), 0);
        assert_eq!(lcs_len(&[1, 2, 3], &[1, 2, 3]), 3);
        // Ids need not be dense: the metrics use u32::MAX for words the gold text lacks.
        assert_eq!(lcs_len(&[u32::MAX, 7, u32::MAX], &[7, 9]), 1);
        assert_eq!(alignment(&[u32::MAX, 7], &[5, 6, 7, 8]), vec![(1, 2)]);
        // ABCBDAB vs BDCABA: LCS 4 (the textbook example).
        let a = [0, 1, 2, 1, 3, 0, 1];
        let b = [1, 3, 2, 0, 1, 0];
        assert_eq!(lcs_len(&a, &b), 4);
        let p = alignment(&a, &b);
        assert_eq!(p.len(), 4);
        check_alignment(&a, &b, &p);
    }

    #[test]
    fn fast_lcs_matches_dynamic_programming_on_random_sequences() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..400 {
            // Lengths across the 64-bit word boundaries; small alphabets give long LCSs, large short.
            let n = rng.below(200);
            let m = rng.below(if round % 4 == 0 { 300 } else { 130 });
            let alphabet = 1 + rng.below(if round % 2 == 0 { 4 } else { 50 });
            let a: Vec<Sym> = (0..n).map(|_| rng.below(alphabet) as Sym).collect();
            let b: Vec<Sym> = (0..m).map(|_| rng.below(alphabet) as Sym).collect();
            let want = dp(&a, &b);
            assert_eq!(lcs_len(&a, &b), want, "lcs_len a={a:?} b={b:?}");
            assert_eq!(lcs_len(&b, &a), want);
            let p = alignment(&a, &b);
            assert_eq!(p.len(), want, "alignment length a={a:?} b={b:?}");
            check_alignment(&a, &b, &p);
            let q = alignment(&b, &a);
            assert_eq!(q.len(), want);
            check_alignment(&b, &a, &q);
        }
    }

    #[test]
    fn long_sequences_stay_exact() {
        let mut rng = Rng(42);
        let a: Vec<Sym> = (0..3000).map(|_| rng.below(30) as Sym).collect();
        let b: Vec<Sym> = (0..2500).map(|_| rng.below(30) as Sym).collect();
        let want = dp(&a, &b);
        assert_eq!(lcs_len(&a, &b), want);
        let p = alignment(&a, &b);
        assert_eq!(p.len(), want);
        check_alignment(&a, &b, &p);
    }
}

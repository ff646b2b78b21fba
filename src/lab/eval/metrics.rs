//! Per-page text metrics and the aggregate has-article, page-grade and speed statistics.
//!
//! Every text metric reads the same two word sequences: [`crate::text::words::normalize`] (NFKC, whitespace
//! folded) then [`crate::text::words::words`] (lower-cased `\w+` runs, each CJK character a word of its own).
//! One tokenisation for all metrics means the metrics differ only in how they compare, never in what.
//!
//! Edge cases, the same for every text metric: both texts empty → precision = recall = F1 = 1 (nothing
//! to find, nothing wrongly found); exactly one empty → all 0.

use std::collections::HashMap;

use serde::Serialize;

use super::lcs;
use crate::text::words;

/// A text turned into word ids in a vocabulary shared with the other side of the comparison.
#[derive(Debug, Clone, Default)]
pub struct Words {
    pub ids: Vec<u32>,
    /// Characters of each word (Thanadechteemapat & Fung measure lengths in characters, spaces removed).
    pub chars: Vec<u32>,
}

impl Words {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    fn total_chars(&self) -> u64 {
        self.chars.iter().map(|&c| u64::from(c)).sum()
    }
}

/// The gold side of a page, tokenised once and reused for every algorithm.
#[derive(Debug, Clone, Default)]
pub struct Gold {
    pub words: Words,
    vocab: HashMap<String, u32>,
}

/// Prediction words that never occur in the gold text get this id: they cannot match anything, so
/// they need no identity of their own (LCS skips them; a shingle holding one never matches gold).
const UNSEEN: u32 = u32::MAX;
/// Pads a short text's single shingle to four slots; no real word has this id.
const PAD: u32 = u32::MAX - 1;

impl Gold {
    pub fn new(text: &str) -> Gold {
        let mut vocab = HashMap::new();
        let mut words = Words::default();
        for w in words::words(&words::normalize(text)) {
            let next = vocab.len() as u32;
            let id = *vocab.entry(w.clone()).or_insert(next);
            words.ids.push(id);
            words.chars.push(w.chars().count() as u32);
        }
        Gold { words, vocab }
    }

    /// Tokenise a prediction into this gold text's vocabulary.
    pub fn predicted(&self, text: &str) -> Words {
        let mut words = Words::default();
        for w in words::words(&words::normalize(text)) {
            words.ids.push(self.vocab.get(&w).copied().unwrap_or(UNSEEN));
            words.chars.push(w.chars().count() as u32);
        }
        words
    }
}

/// Precision, recall and F1 of one comparison.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Prf {
    pub p: f64,
    pub r: f64,
    pub f1: f64,
}

impl Prf {
    /// From matched amount over predicted and gold amounts, with the shared empty-text rules.
    pub fn from_counts(matched: f64, predicted: f64, gold: f64) -> Prf {
        match (predicted == 0.0, gold == 0.0) {
            (true, true) => Prf { p: 1.0, r: 1.0, f1: 1.0 },
            (true, false) | (false, true) => Prf { p: 0.0, r: 0.0, f1: 0.0 },
            (false, false) => {
                let (p, r) = (matched / predicted, matched / gold);
                Prf { p, r, f1: f1(p, r) }
            }
        }
    }
}

/// Harmonic mean, 0 when both are 0.
pub fn f1(p: f64, r: f64) -> f64 {
    if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) }
}

/// The grades of Wang et al.'s Naive Bayes paper, operationalised on the LCS F1 (see [`Grade::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    Excellent,
    Good,
    Poor,
}

impl Grade {
    /// Excellent: word-level LCS F1 >= 0.95 ("consistent with the text labelled by hand", allowing the
    /// small differences any two copies of a page's text have). Good: F1 >= 0.80 (about "1–2
    /// sentences lost or 1–2 noise blocks" on a typical 300–800-word article). Poor: below.
    pub fn of(lcs_f1: f64) -> Grade {
        if lcs_f1 >= 0.95 {
            Grade::Excellent
        } else if lcs_f1 >= 0.80 {
            Grade::Good
        } else {
            Grade::Poor
        }
    }
}

/// Every text metric of one page.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TextScores {
    pub pred_words: usize,
    pub gold_words: usize,
    /// Sun, Song & Liao: word-level LCS precision/recall/F1.
    pub lcs: Prf,
    /// Sun, Song & Liao (after CleanEval): |LCS| / (|a| + |b| − |LCS|).
    pub cleaneval: f64,
    /// Thanadechteemapat & Fung: lengths in characters of the extracted (LEC) and expected (LEP) text, spaces removed,
    /// with the matched characters (LEP − LM) taken from the word-level LCS.
    pub length: Prf,
    /// The multi-type benchmark's measure: words as bags (multisets), per page; its aggregate F1 is the
    /// mean of the pages' F1.
    pub word: Prf,
    /// Industry benchmark: 4-word shingles as multisets. Per-page F1 is reported for inspection only;
    /// the aggregate F1 is taken from the averaged precision and recall.
    pub shingle: Prf,
    /// Lv et al.: LCS precision, recall and F1 all >= 0.95.
    pub accurate: bool,
    pub grade: Grade,
}

/// Score one prediction against its gold text.
pub fn score(pred: &Words, gold: &Words) -> TextScores {
    let pairs = lcs::alignment(&pred.ids, &gold.ids);
    let l = pairs.len() as f64;
    let (a, b) = (pred.len() as f64, gold.len() as f64);
    let lcs = Prf::from_counts(l, a, b);
    let cleaneval = match (a == 0.0, b == 0.0) {
        (true, true) => 1.0,
        _ => l / (a + b - l),
    };
    let matched_chars: u64 = pairs.iter().map(|&(_, j)| u64::from(gold.chars[j])).sum();
    let length = Prf::from_counts(matched_chars as f64, pred.total_chars() as f64, gold.total_chars() as f64);
    let shingle = shingles(&pred.ids, &gold.ids);
    let word = word_bag(&pred.ids, &gold.ids);
    let accurate = lcs.p >= 0.95 && lcs.r >= 0.95 && lcs.f1 >= 0.95;
    TextScores {
        pred_words: pred.len(),
        gold_words: gold.len(),
        lcs,
        cleaneval,
        length,
        word,
        shingle,
        accurate,
        grade: Grade::of(lcs.f1),
    }
}

/// Bag-of-words precision and recall: each gold word matches at most as many predicted copies as the
/// gold text has of it.
fn word_bag(pred: &[u32], gold: &[u32]) -> Prf {
    let mut left: HashMap<u32, u32> = HashMap::with_capacity(gold.len());
    for &g in gold {
        *left.entry(g).or_default() += 1;
    }
    let mut matched = 0usize;
    for p in pred {
        if let Some(c) = left.get_mut(p)
            && *c > 0
        {
            *c -= 1;
            matched += 1;
        }
    }
    Prf::from_counts(matched as f64, pred.len() as f64, gold.len() as f64)
}

/// Share of `snippets` found in `text`, both lower-cased (the multi-type benchmark's `with` and
/// `without` rates); `None` without snippets.
pub fn snippet_rate(text_lower: &str, snippets: &[String]) -> Option<f64> {
    if snippets.is_empty() {
        return None;
    }
    let found = snippets.iter().filter(|s| text_lower.contains(&s.to_lowercase())).count();
    Some(found as f64 / snippets.len() as f64)
}

/// Shingles of four consecutive words; a text of one to three words is a single shingle of all of
/// them (so short texts still count), an empty text has none.
fn shingle_bag(ids: &[u32]) -> HashMap<[u32; 4], u32> {
    let mut bag = HashMap::with_capacity(ids.len());
    if ids.is_empty() {
        return bag;
    }
    if ids.len() < 4 {
        let mut key = [PAD; 4];
        key[..ids.len()].copy_from_slice(ids);
        bag.insert(key, 1);
        return bag;
    }
    for w in ids.windows(4) {
        *bag.entry([w[0], w[1], w[2], w[3]]).or_insert(0) += 1;
    }
    bag
}

/// Multiset shingle precision/recall: matched = Σ min(count in prediction, count in gold).
pub fn shingles(pred: &[u32], gold: &[u32]) -> Prf {
    let (p, g) = (shingle_bag(pred), shingle_bag(gold));
    let total = |bag: &HashMap<[u32; 4], u32>| bag.values().map(|&c| f64::from(c)).sum::<f64>();
    let matched: f64 = g
        .iter()
        .filter(|(k, _)| !k.contains(&UNSEEN))
        .map(|(k, &c)| f64::from(c.min(p.get(k).copied().unwrap_or(0))))
        .sum();
    Prf::from_counts(matched, total(&p), total(&g))
}

/// Has-article judgement statistics over labelled pages. Undefined values (no positive prediction for
/// precision, one class only for AUC) are `None` rather than a made-up 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct HasArticleScores {
    pub n: usize,
    pub tp: usize,
    pub fp: usize,
    pub tn: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
    pub accuracy: Option<f64>,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    pub f1: Option<f64>,
    pub auc: Option<f64>,
    pub brier: Option<f64>,
    pub ece: Option<f64>,
}

/// One labelled page's judgement: (label, probability, predicted `is_article`).
pub type Judgement = (bool, f64, bool);

/// `num / den`, `None` when `den` is 0.
pub fn ratio(num: usize, den: usize) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

/// Accuracy/precision/recall/F1 of `is_article`, and ROC AUC, Brier score and expected calibration
/// error (10 equal-width bins, the last one closed) of `probability`.
pub fn has_article(js: &[Judgement]) -> HasArticleScores {
    let mut s = HasArticleScores { n: js.len(), ..Default::default() };
    for &(label, _, pred) in js {
        match (label, pred) {
            (true, true) => s.tp += 1,
            (false, true) => s.fp += 1,
            (false, false) => s.tn += 1,
            (true, false) => s.fn_ += 1,
        }
    }
    s.accuracy = ratio(s.tp + s.tn, s.n);
    s.precision = ratio(s.tp, s.tp + s.fp);
    s.recall = ratio(s.tp, s.tp + s.fn_);
    s.f1 = match (s.precision, s.recall) {
        (Some(p), Some(r)) => Some(f1(p, r)),
        _ => None,
    };
    s.auc = auc(js);
    if !js.is_empty() {
        let n = js.len() as f64;
        let y = |l: bool| if l { 1.0 } else { 0.0 };
        s.brier = Some(js.iter().map(|&(l, p, _)| (p - y(l)).powi(2)).sum::<f64>() / n);
        let mut bins = [(0usize, 0.0f64, 0.0f64); 10];
        for &(l, p, _) in js {
            let k = ((p * 10.0).floor() as usize).min(9);
            bins[k].0 += 1;
            bins[k].1 += p;
            bins[k].2 += y(l);
        }
        // Σ (count/N)·|mean p − mean y| = Σ |Σp − Σy| / N.
        s.ece = Some(bins.iter().map(|&(_, ps, ys)| (ps - ys).abs()).sum::<f64>() / n);
    }
    s
}

/// ROC AUC as the Mann–Whitney statistic: the chance a random positive scores above a random negative,
/// ties counting half. `None` when one class is missing.
pub fn auc(js: &[Judgement]) -> Option<f64> {
    let pos = js.iter().filter(|j| j.0).count();
    let neg = js.len() - pos;
    if pos == 0 || neg == 0 {
        return None;
    }
    let mut sorted: Vec<(f64, bool)> = js.iter().map(|&(l, p, _)| (p, l)).collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Sum of the positives' ranks (1-based), tied groups given their average rank.
    let mut rank_sum = 0.0;
    let mut i = 0;
    while i < sorted.len() {
        let mut k = i;
        while k < sorted.len() && sorted[k].0 == sorted[i].0 {
            k += 1;
        }
        let avg = (i + 1 + k) as f64 / 2.0;
        rank_sum += avg * sorted[i..k].iter().filter(|x| x.1).count() as f64;
        i = k;
    }
    let (p, n) = (pos as f64, neg as f64);
    Some((rank_sum - p * (p + 1.0) / 2.0) / (p * n))
}

/// Median (mean of the two middle values for an even count) and 95th percentile (nearest rank).
pub fn median_p95(values: &mut [f64]) -> (Option<f64>, Option<f64>) {
    if values.is_empty() {
        return (None, None);
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 };
    let rank = ((0.95 * n as f64).ceil() as usize).clamp(1, n);
    (Some(median), Some(values[rank - 1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(pred: &str, gold: &str) -> TextScores {
        let g = Gold::new(gold);
        score(&g.predicted(pred), &g.words)
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    #[test]
    fn lcs_and_cleaneval_by_hand() {
        // gold 6 words, prediction 5 words, LCS "the cat sat on" = 4.
        let s = pair("The cat sat on mats", "the cat sat on the mat");
        assert_eq!((s.pred_words, s.gold_words), (5, 6));
        close(s.lcs.p, 4.0 / 5.0);
        close(s.lcs.r, 4.0 / 6.0);
        close(s.lcs.f1, 2.0 * 0.8 * (4.0 / 6.0) / (0.8 + 4.0 / 6.0));
        close(s.cleaneval, 4.0 / (5.0 + 6.0 - 4.0));
        // Thanadechteemapat & Fung's lengths: LEC = 3+3+3+2+4 = 15, LEP = 3+3+3+2+3+3 = 17, matched = 11.
        close(s.length.p, 11.0 / 15.0);
        close(s.length.r, 11.0 / 17.0);
        // Shingles: pred {the cat sat on, cat sat on mats}, gold {the cat sat on, cat sat on the,
        // sat on the mat}: one match.
        close(s.shingle.p, 1.0 / 2.0);
        close(s.shingle.r, 1.0 / 3.0);
        assert!(!s.accurate);
        assert_eq!(s.grade, Grade::Poor);
    }

    #[test]
    fn empty_prediction_and_empty_gold() {
        let s = pair("", "some gold text here");
        let zero = Prf { p: 0.0, r: 0.0, f1: 0.0 };
        assert_eq!((s.lcs, s.length, s.shingle), (zero, zero, zero));
        close(s.cleaneval, 0.0);
        assert_eq!(s.grade, Grade::Poor);
        let s = pair("predicted words", "");
        close(s.lcs.p, 0.0);
        close(s.shingle.r, 0.0);
        close(s.cleaneval, 0.0);
        let s = pair("  ", "");
        close(s.lcs.f1, 1.0);
        close(s.shingle.f1, 1.0);
        close(s.length.f1, 1.0);
        close(s.cleaneval, 1.0);
        assert!(s.accurate);
    }

    #[test]
    fn identical_text_is_perfect_after_normalisation() {
        let s = pair("Ｈｅｌｌｏ,\u{00A0}World!  How are you today?", "hello world how are you today");
        for m in [s.lcs, s.length, s.shingle] {
            close(m.f1, 1.0);
        }
        close(s.cleaneval, 1.0);
        assert!(s.accurate);
        assert_eq!(s.grade, Grade::Excellent);
    }

    #[test]
    fn cjk_counts_per_character() {
        // 6 characters each, one differs: LCS = 5 (农民培训…好).
        let s = pair("农民培训很好", "农民培训真好");
        assert_eq!((s.pred_words, s.gold_words), (6, 6));
        close(s.lcs.p, 5.0 / 6.0);
        close(s.lcs.r, 5.0 / 6.0);
        close(s.cleaneval, 5.0 / 7.0);
        // Lengths are characters too: 5 of 6 matched on both sides.
        close(s.length.p, 5.0 / 6.0);
        // Shingles of characters: gold 农民培训 民培训真 培训真好; prediction shares only the first.
        close(s.shingle.p, 1.0 / 3.0);
        close(s.shingle.r, 1.0 / 3.0);
    }

    #[test]
    fn swapped_paragraphs_split_lcs_from_shingles() {
        let p1 = "alpha beta gamma delta epsilon zeta eta theta";
        let p2 = "one two three four five six seven eight";
        let s = pair(&format!("{p2} {p1}"), &format!("{p1} {p2}"));
        // LCS keeps only one paragraph in order: 8 of 16.
        close(s.lcs.p, 0.5);
        close(s.lcs.r, 0.5);
        assert_eq!(s.grade, Grade::Poor);
        // Bag of shingles loses only the 3 that cross the seam on each side: 10 of 13 match.
        close(s.shingle.p, 10.0 / 13.0);
        close(s.shingle.r, 10.0 / 13.0);
    }

    #[test]
    fn short_texts_are_one_shingle() {
        let s = pair("good morning", "Good morning!");
        close(s.shingle.f1, 1.0);
        let s = pair("good", "good morning");
        close(s.shingle.f1, 0.0);
        close(s.lcs.p, 1.0);
        close(s.lcs.r, 0.5);
    }

    #[test]
    fn shingles_are_multisets() {
        let g = Gold::new("a b c d a b c d");
        // gold shingles: abcd ×2, bcda, cdab, dabc = 5. prediction "a b c d" has abcd ×1.
        let s = score(&g.predicted("a b c d"), &g.words);
        close(s.shingle.p, 1.0);
        close(s.shingle.r, 1.0 / 5.0);
        // Prediction repeating abcd three times: abcd ×3, bcda ×2, cdab ×2, dabc ×2 = 9; matched 2+1+1+1.
        let s = score(&g.predicted("a b c d a b c d a b c d"), &g.words);
        close(s.shingle.p, 5.0 / 9.0);
        close(s.shingle.r, 1.0);
    }

    #[test]
    fn grades_follow_the_stated_thresholds() {
        assert_eq!(Grade::of(0.95), Grade::Excellent);
        assert_eq!(Grade::of(0.9499), Grade::Good);
        assert_eq!(Grade::of(0.80), Grade::Good);
        assert_eq!(Grade::of(0.7999), Grade::Poor);
    }

    #[test]
    fn has_article_confusion_matrix() {
        // Table 3 of Lv et al.'s P-value paper as judgements: 23 TP, 5 FN, 0 FP, 55 TN.
        let mut js = Vec::new();
        js.extend(std::iter::repeat_n((true, 0.8, true), 23));
        js.extend(std::iter::repeat_n((true, 0.3, false), 5));
        js.extend(std::iter::repeat_n((false, 0.1, false), 55));
        let s = has_article(&js);
        assert_eq!((s.tp, s.fp, s.tn, s.fn_), (23, 0, 55, 5));
        close(s.accuracy.unwrap(), 78.0 / 83.0); // 93.98%, as the paper reports
        close(s.precision.unwrap(), 1.0);
        close(s.recall.unwrap(), 23.0 / 28.0);
        close(s.f1.unwrap(), 2.0 * (23.0 / 28.0) / (1.0 + 23.0 / 28.0));
        // Every positive scores above every negative: AUC 1.
        close(s.auc.unwrap(), 1.0);
        // Brier: (23·0.04 + 5·0.49 + 55·0.01) / 83.
        close(s.brier.unwrap(), (23.0 * 0.04 + 5.0 * 0.49 + 55.0 * 0.01) / 83.0);
        // ECE: bin 8 (23 pages, mean p 0.8, all positive) |0.8−1|; bin 3 (5, 0.3, all positive) |0.3−1|;
        // bin 1 (55, 0.1, none) |0.1−0|.
        close(s.ece.unwrap(), (23.0 * 0.2 + 5.0 * 0.7 + 55.0 * 0.1) / 83.0);
    }

    #[test]
    fn auc_with_ties_and_misorderings() {
        // Positives 0.9, 0.4, 0.4; negatives 0.4, 0.2. Pairs: (0.9 vs both) 2, (0.4 vs 0.4) ½ each, (0.4
        // vs 0.2) 1 each: (2 + 0.5 + 1 + 0.5 + 1) / 6.
        let js = [(true, 0.9, true), (true, 0.4, false), (true, 0.4, false), (false, 0.4, false), (false, 0.2, false)];
        close(auc(&js).unwrap(), 5.0 / 6.0);
        let s = has_article(&js);
        close(s.precision.unwrap(), 1.0);
        close(s.recall.unwrap(), 1.0 / 3.0);
        close(s.accuracy.unwrap(), 3.0 / 5.0);
        // One class only: AUC undefined; no positive prediction: precision undefined.
        assert_eq!(auc(&[(true, 0.9, true), (true, 0.1, false)]), None);
        assert_eq!(has_article(&[(true, 0.1, false)]).precision, None);
        // p = 1.0 lands in the last bin, not past it.
        close(has_article(&[(true, 1.0, true)]).ece.unwrap(), 0.0);
    }

    #[test]
    fn median_and_p95() {
        let mut v = vec![5.0, 1.0, 3.0, 2.0];
        assert_eq!(median_p95(&mut v), (Some(2.5), Some(5.0)));
        let mut v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(median_p95(&mut v), (Some(50.5), Some(95.0)));
        assert_eq!(median_p95(&mut []), (None, None));
    }
}

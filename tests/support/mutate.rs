//! Mutations for the fuzz tests of files: a truncation, a flipped bit, or a number swapped for
//! an extreme one.

use manifold_lab::engine::rng::SplitMix64;

/// One mutation of `text`: a truncation or a bit flip (one chance each in `kinds`), otherwise
/// a number in the text replaced by one of `extremes`.
pub fn mutate(text: &str, rng: &mut SplitMix64, kinds: usize, extremes: &[&str]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    match rng.below(kinds) {
        0 => bytes.truncate(rng.below(bytes.len() + 1)),
        1 => {
            let i = rng.below(bytes.len());
            bytes[i] ^= 1 << rng.below(8) as u8;
        }
        _ => {
            let numbers: Vec<usize> = (0..bytes.len())
                .filter(|&i| bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_digit()))
                .collect();
            if let Some(&start) = numbers.get(rng.below(numbers.len().max(1))) {
                let end = (start..bytes.len())
                    .find(|&i| !(bytes[i].is_ascii_digit() || bytes[i] == b'.'))
                    .unwrap_or(bytes.len());
                bytes.splice(start..end, extremes[rng.below(extremes.len())].bytes());
            }
        }
    }
    bytes
}

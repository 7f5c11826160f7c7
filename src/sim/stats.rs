//! Small statistics used by the reports: descriptive statistics with
//! quantiles, Wilson intervals for win rates, and the two tests of
//! `tabula compare` (two-proportion z-test, Welch's t-test).
//!
//! Everything here is plain arithmetic in a fixed order, so the same
//! numbers in give the same bits out (the JSON of a run is reproducible).

use serde::{Deserialize, Serialize};

use super::tally::{nth, total, values, Counts};

/// The 97.5% quantile of the standard normal distribution (95% two-sided).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Descriptive statistics of an integer quantity over the games.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Stats {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation (n - 1 in the denominator; 0 for one value).
    pub sd: f64,
    /// The smallest value.
    pub min: i64,
    /// The first quartile (linear interpolation between order statistics).
    pub p25: f64,
    /// The median.
    pub median: f64,
    /// The third quartile.
    pub p75: f64,
    /// The largest value.
    pub max: i64,
}

impl Stats {
    /// The statistics of `xs`, or `None` when there are none.
    pub fn of(xs: impl Iterator<Item = i64>) -> Option<Stats> {
        let mut v: Vec<i64> = xs.collect();
        if v.is_empty() {
            return None;
        }
        v.sort_unstable();
        let n = v.len() as f64;
        let mean = v.iter().map(|x| *x as f64).sum::<f64>() / n;
        let ss: f64 = v.iter().map(|x| (*x as f64 - mean).powi(2)).sum();
        let sd = if v.len() > 1 {
            (ss / (n - 1.0)).sqrt()
        } else {
            0.0
        };
        Some(Stats {
            mean,
            sd,
            min: v[0],
            p25: quantile(&v, 0.25),
            median: quantile(&v, 0.5),
            p75: quantile(&v, 0.75),
            max: v[v.len() - 1],
        })
    }
}

impl Stats {
    /// The statistics of the values counted in `c` (see
    /// `super::tally::Counts`), or `None` when there are none: bit for
    /// bit those of [`Stats::of`] over the same values.
    pub fn of_counts(c: &Counts) -> Option<Stats> {
        let len = total(c);
        if len == 0 {
            return None;
        }
        let n = len as f64;
        let mean = values(c).map(|x| x as f64).sum::<f64>() / n;
        let ss: f64 = values(c).map(|x| (x as f64 - mean).powi(2)).sum();
        let sd = if len > 1 {
            (ss / (n - 1.0)).sqrt()
        } else {
            0.0
        };
        let quantile = |q: f64| {
            let h = (len - 1) as f64 * q;
            let lo = h.floor() as u64;
            let hi = (lo + 1).min(len - 1);
            let frac = h - lo as f64;
            let (a, b) = (nth(c, lo), nth(c, hi));
            a as f64 + (b as f64 - a as f64) * frac
        };
        Some(Stats {
            mean,
            sd,
            min: *c.keys().next()?,
            p25: quantile(0.25),
            median: quantile(0.5),
            p75: quantile(0.75),
            max: *c.keys().next_back()?,
        })
    }
}

/// The `q`-quantile of sorted, non-empty `v`, interpolating linearly between
/// order statistics (the "type 7" definition of R and NumPy).
pub fn quantile(v: &[i64], q: f64) -> f64 {
    let h = (v.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    let frac = h - lo as f64;
    v[lo] as f64 + (v[hi] as f64 - v[lo] as f64) * frac
}

/// The Wilson score interval (95%) of a proportion `p` observed over `n`
/// trials; `(0, 1)` when `n` is 0.
pub fn wilson(p: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).max(0.0).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Mean and sample variance of `xs` (variance 0 for fewer than two values).
#[cfg(test)]
fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, var)
}

/// The complementary error function (Chebyshev fit, relative error below
/// 1.2e-7 everywhere).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The two-sided p-value of a standard normal statistic `z`.
pub fn normal_two_sided(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// `ln Γ(x)` for `x > 0` (Lanczos approximation, g = 7).
pub fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let mut a = C[0];
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised incomplete beta function `I_x(a, b)`.
pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_cf(a, b, x) / a
    } else {
        1.0 - front * beta_cf(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let fix = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / fix(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..500 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / fix(1.0 + aa * d);
        c = fix(1.0 + aa / c);
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / fix(1.0 + aa * d);
        c = fix(1.0 + aa / c);
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The two-sided p-value of Student's t statistic `t` with `df` degrees of
/// freedom.
pub fn student_two_sided(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return 1.0;
    }
    if t.is_infinite() {
        return 0.0;
    }
    beta_inc(df / 2.0, 0.5, df / (df + t * t)).clamp(0.0, 1.0)
}

/// A test of the difference between two samples: `b - a`, its statistic and
/// its two-sided p-value.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Test {
    /// The statistic in the first sample.
    pub a: f64,
    /// The statistic in the second sample.
    pub b: f64,
    /// `b - a`.
    pub diff: f64,
    /// The test statistic (z or t).
    pub stat: f64,
    /// The two-sided p-value (1 when the test is undefined).
    pub p: f64,
    /// The 95% interval of `b - a` (unpooled for proportions, Welch's for
    /// means; `(diff, diff)` when undefined).
    #[serde(default)]
    pub ci95: (f64, f64),
}

/// Two-proportion z-test (pooled) of `pa` over `na` trials against `pb`
/// over `nb`.
pub fn two_proportion(pa: f64, na: usize, pb: f64, nb: usize) -> Test {
    let (nfa, nfb) = (na as f64, nb as f64);
    let pooled = (pa * nfa + pb * nfb) / (nfa + nfb).max(1.0);
    let se = (pooled * (1.0 - pooled) * (1.0 / nfa.max(1.0) + 1.0 / nfb.max(1.0))).sqrt();
    let diff = pb - pa;
    let (stat, p) = if se > 0.0 && na > 0 && nb > 0 {
        let z = diff / se;
        (z, normal_two_sided(z))
    } else {
        (0.0, 1.0)
    };
    let half = if na > 0 && nb > 0 {
        Z95 * (pa * (1.0 - pa) / nfa + pb * (1.0 - pb) / nfb).sqrt()
    } else {
        0.0
    };
    Test {
        a: pa,
        b: pb,
        diff,
        stat,
        p,
        ci95: (diff - half, diff + half),
    }
}

/// Mean, sample variance and number of the values counted in `c`
/// (variance 0 for fewer than two values), summed in increasing order.
pub fn mean_var_counts(c: &Counts) -> (f64, f64, u64) {
    let len = total(c);
    if len == 0 {
        return (0.0, 0.0, 0);
    }
    let n = len as f64;
    let mean = values(c).map(|x| x as f64).sum::<f64>() / n;
    let var = if len > 1 {
        values(c).map(|x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, var, len)
}

/// Welch's unequal-variance t-test of the means of `xa` and `xb` (the
/// tests compare it with the version over counts).
#[cfg(test)]
fn welch(xa: &[f64], xb: &[f64]) -> Test {
    let (ma, va) = mean_var(xa);
    let (mb, vb) = mean_var(xb);
    welch_of((ma, va, xa.len() as u64), (mb, vb, xb.len() as u64))
}

/// Welch's t-test of the values counted in `a` and `b`.
pub fn welch_counts(a: &Counts, b: &Counts) -> Test {
    welch_of(mean_var_counts(a), mean_var_counts(b))
}

/// Welch's t-test from each sample's mean, variance and size.
fn welch_of((ma, va, la): (f64, f64, u64), (mb, vb, lb): (f64, f64, u64)) -> Test {
    let (na, nb) = (la as f64, lb as f64);
    let diff = mb - ma;
    if la < 2 || lb < 2 {
        return Test {
            a: ma,
            b: mb,
            diff,
            stat: 0.0,
            p: 1.0,
            ci95: (diff, diff),
        };
    }
    let (sa, sb) = (va / na, vb / nb);
    let se2 = sa + sb;
    let mut ci95 = (diff, diff);
    let (stat, p) = if se2 > 0.0 {
        let t = diff / se2.sqrt();
        let df = se2 * se2 / (sa * sa / (na - 1.0) + sb * sb / (nb - 1.0));
        let half = student_quantile95(df) * se2.sqrt();
        ci95 = (diff - half, diff + half);
        (t, student_two_sided(t, df))
    } else if diff == 0.0 {
        (0.0, 1.0)
    } else {
        // Two constant samples that differ: the difference is certain.
        (diff.signum() * f64::INFINITY, 0.0)
    };
    Test {
        a: ma,
        b: mb,
        diff,
        stat,
        p,
        ci95,
    }
}

/// The t such that Student's distribution with `df` degrees of freedom
/// leaves 5% outside `-t..t` (found by bisection; the normal 1.96 for
/// an undefined or huge `df`).
pub fn student_quantile95(df: f64) -> f64 {
    if !df.is_finite() || df <= 0.0 || df > 1e7 {
        return Z95;
    }
    let (mut lo, mut hi) = (0.0f64, 1000.0f64);
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if student_two_sided(mid, df) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The 95% interval of the mean of `n` values with statistics `s`
/// (Student's t; the mean itself for fewer than two values). `quantile`
/// gives [`student_quantile95`] of a number of degrees of freedom (the
/// caller may remember it: the bisection is not cheap).
pub fn mean_ci95(s: &Stats, n: u64, quantile: &mut dyn FnMut(u64) -> f64) -> (f64, f64) {
    if n < 2 {
        return (s.mean, s.mean);
    }
    let half = quantile(n - 1) * s.sd / (n as f64).sqrt();
    (s.mean - half, s.mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn quantiles_interpolate() {
        let s = Stats::of([1, 2, 3, 4].into_iter()).unwrap();
        assert_eq!((s.min, s.max), (1, 4));
        assert_eq!(s.median, 2.5);
        assert_eq!(s.p25, 1.75);
        assert_eq!(s.p75, 3.25);
        assert!(close(s.sd, 1.290_994_448_7, 1e-9));
        assert!(Stats::of(std::iter::empty()).is_none());
        assert_eq!(Stats::of([5].into_iter()).unwrap().sd, 0.0);
    }

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: (0.4038, 0.5962).
        let (lo, hi) = wilson(0.5, 100);
        assert!(
            close(lo, 0.4038, 1e-4) && close(hi, 0.5962, 1e-4),
            "{lo} {hi}"
        );
        // 0 of 10: (0, 0.2775).
        let (lo, hi) = wilson(0.0, 10);
        assert!(
            close(lo, 0.0, 1e-12) && close(hi, 0.2775, 1e-4),
            "{lo} {hi}"
        );
    }

    #[test]
    fn normal_and_student_p_values() {
        assert!(close(normal_two_sided(1.959_964), 0.05, 1e-6));
        assert!(close(normal_two_sided(0.0), 1.0, 1e-6));
        // t = 2.228 with 10 df: p = 0.05.
        assert!(close(student_two_sided(2.228_139, 10.0), 0.05, 1e-5));
        // t = 1 with 1 df (Cauchy): p = 0.5.
        assert!(close(student_two_sided(1.0, 1.0), 0.5, 1e-9));
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-12));
        assert!(close(student_quantile95(10.0), 2.228_139, 1e-5));
        assert!(close(student_quantile95(f64::INFINITY), Z95, 1e-12));
    }

    #[test]
    fn welch_and_two_proportion() {
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [2.0, 4.0, 6.0, 8.0, 10.0];
        let t = welch(&a, &b);
        // t = 3 / sqrt(2.5 / 5 + 10 / 5) = 1.8974 with 5.882 df (Welch-
        // Satterthwaite); p = 0.107531 (numerical integration of the density).
        assert!(close(t.stat, 1.897_366_6, 1e-6), "{t:?}");
        assert!(close(t.p, 0.107_531_2, 1e-6), "{t:?}");
        let z = two_proportion(0.5, 100, 0.6, 100);
        // pooled 0.55: z = 0.1 / sqrt(0.2475 * 0.02) = 1.4213, p = 0.1552.
        assert!(close(z.stat, 1.421_338, 1e-5), "{z:?}");
        assert!(close(z.p, 0.155_2, 2e-4), "{z:?}");
        assert_eq!(two_proportion(0.0, 10, 0.0, 10).p, 1.0);
    }
}

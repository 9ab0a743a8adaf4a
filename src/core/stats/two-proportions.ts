/**
 * The two-proportion z-test (pooled), so that 3 of 4 against 2 of 4 is not read as a headline:
 * how likely a difference at least this large is when both sets share one rate.
 */

export interface ProportionTest {
  readonly z: number;
  /** Two-sided; 1 when there is no variance to test (both rates 0, or both 1). */
  readonly p: number;
}

/** x1 of n1 against x2 of n2; both n must be at least 1. */
export function twoProportionTest(x1: number, n1: number, x2: number, n2: number): ProportionTest {
  const pooled = (x1 + x2) / (n1 + n2);
  const variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2);
  if (variance === 0) return { z: 0, p: 1 };
  const z = (x2 / n2 - x1 / n1) / Math.sqrt(variance);
  return { z, p: Math.min(1, erfc(Math.abs(z) / Math.SQRT2)) };
}

/**
 * The complementary error function for x ≥ 0, to a fractional error under 1.2e-7 (Numerical
 * Recipes' `erfcc`, a Chebyshev fit): docs/sql computes the same polynomial, so both agree.
 */
export function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t *
                          (-1.13520398 +
                            t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return t * Math.exp(-x * x + poly);
}

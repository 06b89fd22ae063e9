/** Symmetric positive definite systems by Cholesky factorisation, for the Newton steps of both fits (row-major p×p). */

/** Solves A·z = g in place for a symmetric positive definite A (Cholesky, A becomes its factor); false if A is not. */
export function solveSpd(A: Float64Array, g: Float64Array, p: number): boolean {
  if (!cholesky(A, p)) return false;
  solveFactored(A, g, p);
  return true;
}

/** A = L·Lᵀ in place (L in the lower triangle); false if A is not positive definite. */
export function cholesky(A: Float64Array, p: number): boolean {
  for (let j = 0; j < p; j++) {
    let d = A[j * p + j] as number;
    for (let k = 0; k < j; k++) d -= (A[j * p + k] as number) ** 2;
    if (!(d > 1e-300)) return false;
    const l = Math.sqrt(d);
    A[j * p + j] = l;
    for (let i = j + 1; i < p; i++) {
      let s = A[i * p + j] as number;
      for (let k = 0; k < j; k++) s -= (A[i * p + k] as number) * (A[j * p + k] as number);
      A[i * p + j] = s / l;
    }
  }
  return true;
}

/** Solves L·Lᵀ·z = g in place, L from {@link cholesky}. */
export function solveFactored(A: Float64Array, g: Float64Array, p: number): void {
  for (let i = 0; i < p; i++) {
    let s = g[i] as number;
    for (let k = 0; k < i; k++) s -= (A[i * p + k] as number) * (g[k] as number);
    g[i] = s / (A[i * p + i] as number);
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = g[i] as number;
    for (let k = i + 1; k < p; k++) s -= (A[k * p + i] as number) * (g[k] as number);
    g[i] = s / (A[i * p + i] as number);
  }
}

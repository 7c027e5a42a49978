/** Exponentially weighted moving average as in the crawl-ability paper: new = old*alpha + x*(1-alpha). */
export function ewma(old: number | null, measured: number, alpha = 0.8): number {
  return old === null ? measured : old * alpha + measured * (1 - alpha);
}

import { describe, expect, it } from 'vitest';
import { IpGate } from '../../core/scheduler/ip-gate.js';

describe('IpGate', () => {
  it('lets one connection hold an address; others wait w while it is open', () => {
    const gate = new IpGate(1000);
    expect(gate.acquire('10.0.0.1', 0)).toBeNull();
    // When the open connection ends is unknown: ask again after w.
    expect(gate.acquire('10.0.0.1', 5)).toBe(1000);
    expect(gate.acquire('10.0.0.1', 500)).toBe(1000);
    // Another address is not held.
    expect(gate.acquire('10.0.0.2', 5)).toBeNull();
  });

  it('after release the address waits the gap from the end of the last response', () => {
    const gate = new IpGate(1000);
    expect(gate.acquire('10.0.0.1', 0)).toBeNull();
    gate.release('10.0.0.1', 300, 1000);
    expect(gate.acquire('10.0.0.1', 400)).toBe(900);
    expect(gate.acquire('10.0.0.1', 1299)).toBe(1);
    expect(gate.acquire('10.0.0.1', 1300)).toBeNull();
    expect(gate.acquire('10.0.0.1', 1300)).toBe(1000);
  });

  it('a longer gap (Crawl-delay) holds the address longer', () => {
    const gate = new IpGate(1000);
    gate.acquire('10.0.0.1', 0);
    gate.release('10.0.0.1', 100, 5000);
    expect(gate.acquire('10.0.0.1', 1100)).toBe(4000);
    expect(gate.acquire('10.0.0.1', 5100)).toBeNull();
  });

  it('w = 0: free again as soon as the connection ends, and never asks to retry at once', () => {
    const gate = new IpGate(0);
    gate.acquire('10.0.0.1', 0);
    expect(gate.acquire('10.0.0.1', 10)).toBe(20);
    gate.release('10.0.0.1', 50, 0);
    expect(gate.acquire('10.0.0.1', 50)).toBeNull();
  });
});

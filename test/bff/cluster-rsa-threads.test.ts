import { describe, expect, it } from 'vitest';
import { clusterRsaThreads } from '../../bff/process.ts';

describe("a cluster's legacy RSA threads", () => {
  it("gives each process twice its share of the cores, so a process with more than its share of connections can use a neighbour's idle core", () => {
    expect(clusterRsaThreads(2, 2)).toBe(2);
    expect(clusterRsaThreads(8, 8)).toBe(2);
    expect(clusterRsaThreads(8, 4)).toBe(4);
  });

  it('gives each process two threads when there are more processes than cores', () => {
    expect(clusterRsaThreads(4, 8)).toBe(2);
    expect(clusterRsaThreads(2, 5)).toBe(2);
  });

  it('never gives one process more threads than the machine has cores', () => {
    expect(clusterRsaThreads(2, 1)).toBe(2);
    expect(clusterRsaThreads(8, 2)).toBe(8);
    expect(clusterRsaThreads(1, 3)).toBe(1);
  });
});

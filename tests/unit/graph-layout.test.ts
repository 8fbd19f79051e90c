import { describe, expect, it } from 'vitest';
import { centrePositions, ellipseRingPositions, ringCount } from '@/components/graph/layouts/radial';

describe('ellipseRingPositions', () => {
  const geometry = { width: 700, height: 520 };

  it('places every node inside the drawing area, the first at 12 o’clock', () => {
    const positions = ellipseRingPositions(60, geometry);
    expect(positions).toHaveLength(60);
    for (const p of positions) {
      expect(Math.abs(p.x)).toBeLessThanOrEqual(350 - 60);
      expect(Math.abs(p.y)).toBeLessThanOrEqual(260 - 36);
    }
    expect(positions[0]).toEqual({ x: 0, y: -(260 - 36) });
  });

  it('gives every node its own position', () => {
    const positions = ellipseRingPositions(60, geometry);
    expect(new Set(positions.map((p) => `${p.x},${p.y}`)).size).toBe(60);
  });

  it('alternates consecutive nodes between rings', () => {
    const positions = ellipseRingPositions(30, geometry);
    const radius = (i: number) => Math.hypot(positions[i]!.x / 290, positions[i]!.y / 224);
    expect(radius(0)).toBeCloseTo(1, 2);
    expect(radius(1)).toBeCloseTo(0.8, 2);
    expect(radius(2)).toBeCloseTo(1, 2);
  });

  it('uses more rings for more nodes', () => {
    expect(ringCount(1)).toBe(1);
    expect(ringCount(16)).toBe(1);
    expect(ringCount(17)).toBe(2);
    expect(ringCount(41)).toBe(3);
    expect(ellipseRingPositions(0, geometry)).toEqual([]);
  });

  it('keeps a usable radius in a tiny container', () => {
    const [p] = ellipseRingPositions(1, { width: 10, height: 10 });
    expect(p).toEqual({ x: 0, y: -50 });
  });
});

describe('centrePositions', () => {
  it('puts one centre node at the origin and several on a small circle', () => {
    expect(centrePositions(0)).toEqual([]);
    expect(centrePositions(1)).toEqual([{ x: 0, y: 0 }]);
    const two = centrePositions(2, 40);
    expect(two).toEqual([
      { x: 0, y: -40 },
      { x: 0, y: 40 },
    ]);
  });
});

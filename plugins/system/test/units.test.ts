import { describe, expect, it, jest } from '@jest/globals';
import type { FastifyBaseLogger } from 'fastify';
import { exposition, RequestCounters } from '../src/prometheus.js';
import { RestartCoordinator, restartAllowed } from '../src/restart.js';
import { isPublicKey, overridesOf } from '../src/server-config.js';

const quietLog = { warn: () => undefined } as unknown as FastifyBaseLogger;

describe('the Prometheus text format', () => {
  it('escapes help text and label values', () => {
    const text = exposition([
      {
        name: 'demo_total',
        help: 'Back\\slash and\nnewline',
        type: 'counter',
        samples: [{ labels: { route: 'a"b\\c\nd' }, value: 3 }],
      },
    ]);
    expect(text).toBe(
      '# HELP demo_total Back\\\\slash and\\nnewline\n# TYPE demo_total counter\ndemo_total{route="a\\"b\\\\c\\nd"} 3\n',
    );
  });

  it('writes special values as Prometheus spells them', () => {
    const text = exposition([
      {
        name: 'g',
        help: 'h',
        type: 'gauge',
        samples: [{ value: NaN }, { value: Infinity }, { value: -Infinity }, { value: 0.25 }],
      },
    ]);
    expect(text.split('\n').slice(2, 6)).toEqual(['g NaN', 'g +Inf', 'g -Inf', 'g 0.25']);
  });

  it('counts requests per method, route and status, with their time', () => {
    const counters = new RequestCounters();
    counters.record('GET', '/api/x', 200, 0.5);
    counters.record('GET', '/api/x', 200, 0.25);
    counters.record('GET', undefined, 404, 0.1);
    const [total, duration] = counters.families();
    expect(total.samples).toEqual([
      { labels: { method: 'GET', route: '/api/x', status: '200' }, value: 2 },
      { labels: { method: 'GET', route: 'unmatched', status: '404' }, value: 1 },
    ]);
    expect(duration.samples[0]).toEqual({
      suffix: '_sum',
      labels: { method: 'GET', route: '/api/x', status: '200' },
      value: 0.75,
    });
  });
});

describe('restart requests', () => {
  it('never stop a process when restarts are not allowed', () => {
    jest.useFakeTimers();
    try {
      const stop = jest.fn();
      const coordinator = new RestartCoordinator(false, stop, quietLog, 10);
      coordinator.requested('root');
      jest.advanceTimersByTime(1000);
      expect(stop).not.toHaveBeenCalled();
      expect(coordinator.pending).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stop the process once, after a grace period, when allowed', () => {
    jest.useFakeTimers();
    try {
      const stop = jest.fn();
      const coordinator = new RestartCoordinator(true, stop, quietLog, 1000);
      coordinator.requested('root');
      coordinator.requested('someone else');
      jest.advanceTimersByTime(999);
      expect(stop).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(stop).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('are dropped when the server closes first', () => {
    jest.useFakeTimers();
    try {
      const stop = jest.fn();
      const coordinator = new RestartCoordinator(true, stop, quietLog, 1000);
      coordinator.requested('root');
      coordinator.cancel();
      jest.advanceTimersByTime(5000);
      expect(stop).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });

  it('are allowed by PIPEWRIGHT_ALLOW_RESTART set to a true value', () => {
    for (const value of ['1', 'true', 'TRUE', ' yes ', 'on']) expect(restartAllowed(value)).toBe(true);
    for (const value of [undefined, '', '0', 'false', 'no', 'restart'])
      expect(restartAllowed(value)).toBe(false);
  });
});

describe('configuration overrides', () => {
  it('keep only what differs from the defaults, object by object', () => {
    const defaults = { a: '', nested: { flag: true, list: [] as string[], deep: { x: 1 } }, other: { y: 2 } };
    expect(overridesOf(defaults, defaults)).toEqual({});
    expect(
      overridesOf(
        { a: 'set', nested: { flag: true, list: ['z'], deep: { x: 1 } }, other: { y: 2 } },
        defaults,
      ),
    ).toEqual({ a: 'set', nested: { list: ['z'] } });
  });

  it('know which keys are public', () => {
    expect(isPublicKey('studioName')).toBe(true);
    expect(isPublicKey('customization.motd')).toBe(true);
    expect(isPublicKey('customizationX')).toBe(false);
    expect(isPublicKey('changelog')).toBe(false);
  });
});

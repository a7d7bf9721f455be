import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DRAWN, reviewWorld, type ReviewWorld } from './review-world.js';

// OpenRV paint in: our own export back (nothing changes), and a session file as RV writes one (other nodes, pens
// with a width per point, an eraser, a text, each frame's drawing order). The media has 24 frames from 1001.
let world: ReviewWorld;
let base: string;

beforeAll(async () => {
  world = await reviewWorld();
  base = world.base;
}, 60_000);
afterAll(() => world.close());

const importRv = (text: string, token = world.artie, type = 'text/plain; charset=utf-8') =>
  world.core.request('POST', `${base}/openrv`, { token, body: text, headers: { 'content-type': type } });
/** What an import must leave as it was (updatedAt aside). */
const kept = (annotations: any[]) => annotations.map(({ updatedAt: _, ...rest }) => rest);
const dashed = (id: string) => id.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

const pen = (name: string, lines: string[]) => [
  `    "${name}"`,
  '    {',
  ...lines.map((l) => `        ${l}`),
  '    }',
];
const PEN_SETTINGS = [
  'string brush = "circle"',
  'int debug = 0',
  'int join = 3',
  'int cap = 1',
  'int splat = 0',
];

/** An RV session of the reviewable's movie, as RV saves it (trimmed to the nodes that matter, plus a few that do not). */
const SESSION = [
  'GTOa (4)',
  '',
  '# A session saved by RV: the paint is in sourceGroup000000_paint, among many other nodes.',
  'rv : RVSession (4)',
  '{',
  '    session',
  '    {',
  '        string viewNode = "defaultSequence"',
  '        int[2] range = [ [ 1 25 ] ]',
  '        int[2] region = [ [ 1 24 ] ]',
  '        float fps = 24',
  '        int currentFrame = 3',
  '        int marks = [ ]',
  '        string clipboard = ""',
  '    }',
  '    writer',
  '    {',
  '        string name = "rvSession.py"',
  '        string version = "0.5"',
  '    }',
  '}',
  '',
  'connections : connection (2)',
  '{',
  '    evaluation',
  '    {',
  '        string lhs = [ "sourceGroup000000" ]',
  '        string rhs = [ "defaultSequence" ]',
  '    }',
  '}',
  '',
  'sourceGroup000000 : RVSourceGroup (1)',
  '{',
  '    ui { string name = "plate_v001" }',
  '}',
  '',
  'sourceGroup000000_source : RVFileSource (1)',
  '{',
  '    media',
  '    {',
  '        string movie = "/mnt/show/sh010/plate_v001.mp4"',
  '    }',
  '    cut { int in = -2147483647 int out = 2147483647 }',
  '    request',
  '    {',
  '        string stereoViews = [ ]',
  '    }',
  '}',
  '',
  'sourceGroup000000_paint : RVPaint (3)',
  '{',
  '    paint',
  '    {',
  '        int nextId = 6',
  '        int nextAnnotationId = 0',
  '        int show = 1',
  '        string exclude = [ ]',
  '        string include = [ ]',
  '    }',
  '',
  ...pen('pen:1:3:alice', [
    'float[4] color = [ [ 1 0 0 1 ] ]',
    'float width = [ 0.01 0.02 0.03 ]',
    ...PEN_SETTINGS,
    'float[2] points = [ [ -0.4 0.1 ] [ -0.3 0.15 ] [ -0.2 0.12 ] ]',
    'int mode = 0',
  ]),
  ...pen('pen:2:3:alice', [
    'float[4] color = [ [ 0 0.5 1 0.8 ] ]',
    'float width = [ 0.005 0.006 ]',
    ...PEN_SETTINGS,
    'float[2] points = [ [ 0.1 -0.1 ] [ 0.3 -0.2 ] ]',
    'int mode = 0',
  ]),
  '    # The eraser: one width for all its points.',
  ...pen('pen:3:3:alice', [
    'float[4] color = [ [ 1 1 1 1 ] ]',
    'float width = 0.05',
    ...PEN_SETTINGS,
    'float[2] points = [ [ -0.3 0.15 ] [ -0.25 0.14 ] ]',
    'int mode = 1',
  ]),
  ...pen('text:4:10:alice', [
    'float[2] position = [ [ 0.2 -0.3 ] ]',
    'float[4] color = [ [ 1 1 0 1 ] ]',
    'float spacing = 0.8',
    'float size = 0.02',
    'float scale = 1',
    'float rotation = 0',
    'string font = ""',
    'string text = "too \\"hot\\""',
    'string origin = ""',
    'int debug = 0',
  ]),
  '    # Undone: drawn, then taken out of its frame\u2019s order.',
  ...pen('pen:5:3:alice', [
    'float[4] color = [ [ 0 1 0 1 ] ]',
    'float width = [ 0.01 ]',
    'float[2] points = [ [ 0 0 ] ]',
    'int mode = 0',
  ]),
  '    "frame:3"',
  '    {',
  '        string order = [ "pen:1:3:alice" "pen:3:3:alice" "pen:2:3:alice" ]',
  '    }',
  '    "frame:10"',
  '    {',
  '        string order = "text:4:10:alice"',
  '    }',
  '}',
  '',
  'sourceGroup000001_paint : RVPaint (3)',
  '{',
  ...pen('pen:1:1:bob', [
    'float[4] color = [ [ 1 0 0 1 ] ]',
    'float width = 0.01',
    'float[2] points = [ [ 0 0 ] ]',
  ]),
  '}',
  '',
  'defaultSequence_sequence : RVSequence (4)',
  '{',
  '    edl',
  '    {',
  '        int frame = [ 1 25 ]',
  '        int source = [ 0 0 ]',
  '        int in = [ 1 0 ]',
  '        int out = [ 24 0 ]',
  '    }',
  '}',
  '',
].join('\n');

/** A paint node alone, its components given. */
const fragment = (...components: string[][]) =>
  ['GTOa (4)', '', 'sourceGroup000000_paint : RVPaint (3)', '{', ...components.flat(), '}', ''].join('\n');

describe('OpenRV paint import', () => {
  it('takes our own export back without changing anything, ids and figures included', async () => {
    await world.clear();
    for (const drawn of DRAWN) expect((await world.as(world.artie)('POST', base, drawn)).status).toBe(201);
    const before = await world.all();
    const exported = (await world.as(world.artie)('GET', `${base}/openrv`)).text;
    for (const { id } of before) expect(exported).toContain(`string pipewright = "${dashed(id)}"`);

    // Strokes, the eraser and the text are replaced by themselves; the figures, which RV holds as pens, are kept.
    const res = await importRv(exported);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: 0, updated: 3, unchanged: 4, skipped: [] });
    expect(kept(await world.all())).toEqual(kept(before));
    // A file of unknown type (what a browser sends for .rv) reads the same.
    expect((await importRv(exported, world.artie, 'application/octet-stream')).body.unchanged).toBe(4);

    // With the objects gone, the figures come back as the pens RV has, each figure's first pen under its id; and
    // the same file again adds nothing.
    await world.clear();
    const fresh = await importRv(exported);
    expect(fresh.body).toEqual({ created: 8, updated: 0, unchanged: 0, skipped: [] });
    const after = await world.all();
    expect(after.map((a) => a.shape.kind)).toEqual([
      ...['stroke', 'eraser'],
      ...['stroke', 'stroke', 'stroke'],
      ...['stroke', 'stroke', 'text'],
    ]);
    expect(after.filter((a) => before.some((b) => b.id === a.id))).toHaveLength(DRAWN.length);
    const drawing = ({ id, frame, color, shape }: any) => ({ id, frame, color, shape });
    expect([after[0], after[1], after[7]].map(drawing)).toEqual(
      [before[0], before[1], before[6]].map(drawing),
    );
    expect((await importRv(exported)).body).toEqual({ created: 0, updated: 8, unchanged: 0, skipped: [] });
    expect((await world.all()).map((a) => a.id)).toEqual(after.map((a) => a.id));
  });

  it("reads an RV session: the first source's paint, at the media's frames, in each frame's order", async () => {
    await world.clear();
    const res = await importRv(SESSION);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      created: 4,
      updated: 0,
      unchanged: 0,
      skipped: ["pen:5:3:alice (undone: not in frame 3's order)", 'sourceGroup000001_paint'],
    });
    const drawn = await world.all();
    expect(drawn.map((a) => [a.frame, a.color, a.shape.kind, a.author])).toEqual([
      [1003, '#ff0000', 'stroke', 'artie'],
      [1003, '#ffffff', 'eraser', 'artie'],
      [1003, '#0080ff', 'stroke', 'artie'],
      [1010, '#ffff00', 'text', 'artie'],
    ]);
    expect(drawn[0].shape.points).toEqual([
      [-0.4, 0.1, 0.01],
      [-0.3, 0.15, 0.02],
      [-0.2, 0.12, 0.03],
    ]);
    expect(drawn[1].shape.points).toEqual([
      [-0.3, 0.15, 0.05],
      [-0.25, 0.14, 0.05],
    ]);
    expect(drawn[2].shape.points).toEqual([
      [0.1, -0.1, 0.005],
      [0.3, -0.2, 0.006],
    ]);
    expect(drawn[3].shape).toEqual({ kind: 'text', at: [0.2, -0.3], text: 'too "hot"', size: 0.02 });

    const again = await importRv(SESSION);
    expect(again.body).toMatchObject({ created: 0, updated: 4, unchanged: 0 });
    expect(kept(await world.all())).toEqual(kept(drawn));
  });

  it('refuses a fragment it cannot read as a whole, naming each problem, and writes nothing', async () => {
    await world.clear();
    const good = pen('pen:1:1:alice', [
      'float[4] color = [ 1 0 0 1 ]',
      'float width = 0.01',
      'float[2] points = [ 0 0 ]',
    ]);
    const bad = fragment(
      good,
      pen('pen:2:1:alice', [
        'float[4] color = [ [ 1 0 0 1 ] ]',
        'float width = 0.01',
        'float[2] points = [ 0 0 0.1 ]',
      ]),
      pen('pen:3:2:alice', [
        'float[4] color = [ 1 0 ]',
        'float width = 0.01',
        'float[2] points = [ [ 0 0 ] ]',
      ]),
      pen('pen:4:2:alice', [
        'float[4] color = [ 1 0 0 1 ]',
        'float width = [ 0.01 0.02 0.03 ]',
        'float[2] points = [ [ 0 0 ] [ 1 1 ] ]',
      ]),
      pen('pen:5:99:alice', [
        'float[4] color = [ 1 0 0 1 ]',
        'float width = 0.01',
        'float[2] points = [ [ 0 0 ] ]',
      ]),
      pen('pen:6:2:alice', [
        'float[4] color = [ 1 0 0 1 ]',
        'float width = -0.01',
        'float[2] points = [ [ 0 0 ] ]',
      ]),
      pen('text:7:2:alice', [
        'float[2] position = [ [ 0 0 ] ]',
        'float[4] color = [ 1 1 1 1 ]',
        'float size = 0.02',
      ]),
    );
    const refused = await importRv(bad);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe('The OpenRV fragment has annotations that cannot be read');
    expect(refused.body.errors.map((e: any) => e.msg)).toEqual([
      'pen:5:99:alice: frame 99 is outside the media (RV frames 1 to 24)',
      'pen:2:1:alice: points must be float[2] pairs (x, y), at least one',
      'pen:3:2:alice: color must be float[4] (r, g, b, a)',
      'pen:4:2:alice: width has 3 values for 2 points (one per point, or one for all)',
      'text:7:2:alice: text must be a string',
      'pen:6:2:alice: Expected number to be greater than 0',
    ]);
    expect(refused.body.errors[0].loc).toEqual(['body', 'sourceGroup000000_paint', 'pen:5:99:alice']);
    expect(await world.all()).toEqual([]);

    const broken = await importRv(fragment(good).replace('float width = 0.01', 'float width = [ 0.01'));
    expect(broken.status).toBe(422);
    expect(broken.body.errors[0].msg).toBe('line 9: expected a value, not =');
    for (const [text, msg] of [
      ['', 'No RVPaint node: send an RV session file (GTO text) or its paint node'],
      [
        'GTOa (4)\n\nrv : RVSession (4)\n{\n}\n',
        'No RVPaint node: send an RV session file (GTO text) or its paint node',
      ],
      ['\u0000\u0000\u0002\u009f', 'Binary GTO is not read: save the session as text (GTOa)'],
      [
        'node : RVPaint (3)\n{\n  "pen:1:1:a"\n  {\n    string text = "open\n',
        'line 5: a string is not closed',
      ],
      // Sizes that would overflow a recursive reader or a regular expression.
      [
        `n : RVPaint (3)\n{\n  c\n  {\n    float x = ${'['.repeat(100_000)}`,
        'line 5: values nest deeper than 64 levels, not [',
      ],
      [
        fragment(
          pen('text:1:1:a', [
            'float[2] position = [ 0 0 ]',
            'float[4] color = [ 1 1 1 1 ]',
            'float size = 0.02',
            `string text = "${'\\"'.repeat(1_000_000)}"`,
          ]),
        ),
        'text:1:1:a: Expected string length less or equal to 2000',
      ],
    ] as const) {
      const res = await importRv(text);
      expect([res.status, res.body.errors[0].msg]).toEqual([422, msg]);
    }
    expect(await world.all()).toEqual([]);
    expect((await importRv(fragment(good), world.gus)).status).toBe(403);
  });

  it('skips components of other kinds and names them', async () => {
    await world.clear();
    const sticker = pen('sticker:2:1:alice', [
      'string image = "smiley.png"',
      'float[2] position = [ [ 0 0 ] ]',
    ]);
    const line = pen('pen:1:1:alice', [
      'float[4] color = [ 1 0 0 1 ]',
      'float width = 0.01',
      'float[2] points = [ [ 0 0 ] [ 0.1 0.1 ] ]',
    ]);
    const res = await importRv(fragment(line, sticker));
    expect(res.body).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: ['sticker:2:1:alice'] });
    expect((await world.all()).map((a) => [a.frame, a.shape.kind])).toEqual([[1001, 'stroke']]);
  });
});

// The board as SVG, drawn from the title's board data (positions on a 1000x1000 canvas, north up) and a view.

import { h, s } from '../../dom.js';
import { noun, t } from '../../i18n.js';

export const COLOUR_HEX = {
  blue: '#2563eb', green: '#16a34a', red: '#dc2626', yellow: '#facc15', white: '#ffffff', purple: '#9333ea',
};
const REGION_FILL = { purple: '#dccbf3', blue: '#c3d7f7', green: '#cbeac5', orange: '#f9d9b0' };
const REGION_EDGE = { purple: '#8b6bb8', blue: '#5f84c2', green: '#5c9a53', orange: '#c98a3c' };
const GRASS_FILL = '#8fcf73';
const ORIGIN_FILL = '#e2452f';
const DIAGONAL = new Set(['NE', 'SE', 'SW', 'NW']);
const OPPOSITE = { N: 'S', S: 'N', E: 'W', W: 'E', NE: 'SW', SW: 'NE', SE: 'NW', NW: 'SE' };
const COMPASS = { N: t('north'), S: t('south'), E: t('east'), W: t('west'), NE: t('north-east'), SW: t('south-west'),
  SE: t('south-east'), NW: t('north-west') };
const REGIONS = { purple: t('purple region'), blue: t('blue region'), green: t('green region'),
  orange: t('orange region') };
const KINDS = { grass: t('grass'), origin: t('where the fire starts') };
// the letter on a token site's marker: the first of the word "token" in the reader's language
const TOKEN_LETTER = t('token').charAt(0).toUpperCase();

/** A district's name as the catalogue writes it. */
function districtName(d) {
  return noun('district', d.name);
}

const BASE = 24; // half the side of the smallest box: the closest districts are 55 apart
const GAP = 7; // space kept between boxes, where the links show
const GROW = { null: 4, 0: 6, 1: 0, 2: 2, 3: 5, 4: 8, 5: 10 }; // how far a box may grow per side, by size
const SLOT = 6.6;
const SLOT_GAP = 1.4;
const MARGIN = 12;
const FONT = 9.4; // district names, in board units (about 11 px on a 1200 px wide board)
const LINE = 9.2;

/** Boxes around the districts: every box starts 48 wide, then grows into free space by its size. */
export function layout(board) {
  const boxes = new Map();
  for (const d of board.districts) {
    boxes.set(d.id, { x0: d.x - BASE, y0: d.y - BASE, x1: d.x + BASE, y1: d.y + BASE });
  }
  const all = [...boxes.entries()];
  const clear = (id, b) => all.every(([other, o]) => other === id
    || !(b.x0 < o.x1 + GAP && o.x0 < b.x1 + GAP && b.y0 < o.y1 + GAP && o.y0 < b.y1 + GAP));
  const order = [...board.districts].sort((a, b) => (GROW[b.size] || 0) - (GROW[a.size] || 0));
  for (let step = 1; step <= 12; step++) {
    for (const d of order) {
      const cap = GROW[d.size] || 0;
      if (step > cap) continue;
      const box = boxes.get(d.id);
      for (const [side, delta] of [['x0', -1], ['x1', 1], ['y0', -1], ['y1', 1]]) {
        const tried = { ...box, [side]: box[side] + delta };
        if (clear(d.id, tried)) box[side] = tried[side];
      }
    }
  }
  let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
  for (const b of boxes.values()) {
    x0 = Math.min(x0, b.x0); y0 = Math.min(y0, b.y0); x1 = Math.max(x1, b.x1); y1 = Math.max(y1, b.y1);
  }
  return { boxes, bounds: { x0: x0 - MARGIN, y0: y0 - MARGIN, x1: x1 + MARGIN, y1: y1 + MARGIN + 18 } };
}

function wrap(name, width, fontSize) {
  const fits = (text) => text.length * fontSize * 0.5 <= width;
  const words = name.split(' ');
  if (words.length === 1 || fits(name)) return [name];
  let best = null;
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(' '), words.slice(i).join(' ')];
    const longest = Math.max(...lines.map((l) => l.length));
    if (!best || longest < best.longest) best = { lines, longest };
  }
  return best.lines;
}

function cone(x, y, count, contained) {
  return s('g', { class: contained ? 'cone contained' : 'cone burning', 'data-testid': 'cone' },
    s('path', { d: `M${x} ${y - 7} L${x + 6} ${y + 6} L${x - 6} ${y + 6} Z` }),
    s('text', { x, y: y + 4.6, class: 'cone-n' }, count));
}

function band(x, y, count, pinned) {
  return s('g', { class: pinned ? 'band pinned' : 'band free', 'data-testid': pinned ? 'band-pinned' : 'band' },
    s('circle', { cx: x, cy: y, r: 4.8 }),
    count > 1 ? s('text', { x, y: y + 2.5, class: 'band-n' }, count) : null);
}

function pawn(x, y, colour, seat) {
  const fill = COLOUR_HEX[colour] || '#888';
  return s('g', { class: 'pawn', 'data-testid': 'pawn', 'data-seat': seat },
    s('circle', { cx: x, cy: y - 4, r: 2.6, fill }),
    s('path', { d: `M${x - 3.6} ${y + 6} L${x - 2} ${y - 1.2} L${x + 2} ${y - 1.2} L${x + 3.6} ${y + 6} Z`, fill }));
}

function badge(x, y, text, cls, title) {
  return s('g', { class: cls },
    s('title', {}, title),
    s('circle', { cx: x, cy: y, r: 6.2 }),
    s('text', { x, y: y + 2.6 }, text));
}

function tooltip(d, dv) {
  const region = REGIONS[d.region] || d.region;
  const lines = [`${districtName(d)} (${region}, ${d.kind === 'burnable' ? t('size {n}', { n: d.size })
    : KINDS[d.kind] || d.kind})`];
  if (d.objective) lines.push(t('Objective: {vp} VP (deck {deck})', { vp: d.objective.vp, deck: d.objective.deck }));
  if (dv) {
    const houses = Object.entries(dv.houses).map(([c, n]) => `${n} ${noun('colour', c)}`).join(', ');
    if (d.kind === 'burnable') lines.push(t('Houses: {houses}', { houses: houses || t('none') }));
    if (dv.fire) {
      lines.push(dv.burning ? t('Fire: {n} fire cones, burning', { n: dv.fire })
        : t('Fire: {n} fire cones, under control', { n: dv.fire }));
    }
    if (dv.bands) lines.push(t('Trained bands: {n} ({pinned} pinned)', { n: dv.bands, pinned: dv.pinnedBands }));
    if (dv.demolished) lines.push(t('Demolished'));
    if (d.tokenSite) lines.push(dv.token ? t('Token: face down here') : t('Token site (empty)'));
  }
  return lines.join('\n');
}

/**
 * Draw the board. opts: {targets: Set of district ids the caller may click, selected: id or null,
 * objectives: Set of the caller's objective ids, onDistrict(id), arrows: [[from, to]]}.
 */
export function drawBoard(board, geometry, view, opts = {}) {
  const { boxes, bounds } = geometry;
  const targets = opts.targets || new Set();
  const byId = new Map(board.districts.map((d) => [d.id, d]));
  const root = s('svg', {
    class: 'board', 'data-testid': 'board', role: 'img', 'aria-label': t('The map of London'),
    viewBox: `${bounds.x0} ${bounds.y0} ${bounds.x1 - bounds.x0} ${bounds.y1 - bounds.y0}`,
  });
  root.append(s('defs', {},
    s('pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
      s('rect', { width: 6, height: 6, fill: '#9a9a9a' }),
      s('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#555', 'stroke-width': 2.4 })),
    s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: 'auto-start-reverse' }, s('path', { d: 'M0 0 L10 5 L0 10 z', fill: '#b91c1c' }))));

  // The Thames along the south edge.
  const river = bounds.y1 - 20;
  root.append(s('rect', { class: 'thames', x: bounds.x0, y: river, width: bounds.x1 - bounds.x0, height: 20 }),
    s('text', { class: 'thames-label', x: bounds.x0 + 10, y: river + 14 }, t('River Thames')));

  const links = s('g', { class: 'links' });
  for (const link of board.links) {
    const a = byId.get(link.from); const b = byId.get(link.to);
    links.append(s('line', {
      class: DIAGONAL.has(link.dir) ? 'link diagonal' : 'link', x1: a.x, y1: a.y, x2: b.x, y2: b.y,
      'data-from': link.from, 'data-to': link.to, 'data-dir': link.dir,
    }, s('title', {}, t('{from} \u2192 {to}: {dir}; back: {back}', { from: districtName(a), to: districtName(b),
      dir: COMPASS[link.dir], back: COMPASS[OPPOSITE[link.dir]] }))));
  }
  root.append(links);

  const layer = s('g', { class: 'districts' });
  for (const d of board.districts) {
    const dv = view ? view.districts[d.id] : null;
    const box = boxes.get(d.id);
    const w = box.x1 - box.x0; const hgt = box.y1 - box.y0;
    const cx = (box.x0 + box.x1) / 2;
    const classes = ['district', `kind-${d.kind}`];
    if (targets.has(d.id)) classes.push('target');
    if (opts.selected === d.id) classes.push('selected');
    if (dv && dv.fire) classes.push(dv.burning ? 'burning' : 'contained');
    if (dv && dv.demolished) classes.push('demolished');
    const g = s('g', {
      class: classes.join(' '), 'data-testid': 'district', 'data-district': d.id,
      'data-fire': dv ? dv.fire : 0, 'data-bands': dv ? dv.bands : 0, 'data-burning': dv ? dv.burning : false,
      tabindex: targets.has(d.id) ? 0 : null,
    });
    g.append(s('title', {}, tooltip(d, dv)));
    const fill = d.kind === 'grass' ? GRASS_FILL : d.kind === 'origin' ? ORIGIN_FILL : REGION_FILL[d.region] || '#ddd';
    g.append(s('rect', { class: 'd-box', x: box.x0, y: box.y0, width: w, height: hgt, rx: 5, fill,
      stroke: REGION_EDGE[d.region] || '#666' }));
    if (dv && dv.demolished) {
      g.append(s('rect', { class: 'd-hatch', x: box.x0, y: box.y0, width: w, height: hgt, rx: 5, fill: 'url(#hatch)' }));
    }
    if (opts.objectives && opts.objectives.has(d.id)) {
      g.append(s('rect', { class: 'mine', x: box.x0 - 3, y: box.y0 - 3, width: w + 6, height: hgt + 6, rx: 7 }));
    }
    // Name, one or two lines.
    const lines = wrap(districtName(d), w - 6, FONT);
    lines.forEach((line, i) => g.append(s('text', {
      class: 'd-name', x: cx, y: box.y0 + 10 + i * LINE, 'data-maxw': w - 5,
    }, line)));
    // House slots: a square per slot, coloured by the house's colour; an empty slot is charred.
    const y = box.y0 + 4.6 + lines.length * LINE;
    if (d.kind === 'burnable') {
      const houses = dv ? Object.entries(dv.houses).flatMap(([c, n]) => Array(n).fill(c)) : [];
      const width = d.size * SLOT + (d.size - 1) * SLOT_GAP;
      let x = cx - width / 2;
      for (let i = 0; i < d.size; i++) {
        const colour = houses[i];
        g.append(s('rect', {
          class: colour ? 'house' : 'house empty', x, y, width: SLOT, height: SLOT,
          fill: colour ? COLOUR_HEX[colour] : null, 'data-colour': colour || null,
        }));
        x += SLOT + SLOT_GAP;
      }
    }
    // Markers: fire, bands (pinned ones ringed in red), pawns.
    if (dv) {
      const items = [];
      if (dv.fire) items.push([13, (x, my) => cone(x + 6.5, my, dv.fire, !dv.burning)]);
      const free = dv.bands - dv.pinnedBands;
      if (dv.pinnedBands) items.push([10.6, (x, my) => band(x + 5.3, my, dv.pinnedBands, true)]);
      if (free) items.push([10.6, (x, my) => band(x + 5.3, my, free, false)]);
      for (const p of dv.pawns) items.push([8.2, (x, my) => pawn(x + 4.1, my, p.colour, p.seat)]);
      const total = items.reduce((sum, [iw]) => sum + iw, 0) + Math.max(0, items.length - 1) * 1.2;
      const my = Math.max(y + SLOT + 8.5, box.y1 - 8.5);
      let x = cx - total / 2;
      for (const [iw, draw] of items) {
        g.append(draw(x, my));
        x += iw + 1.2;
      }
    }
    if (d.objective) {
      g.append(badge(box.x1 - 2, box.y0 + 2, d.objective.vp, 'objective',
        t('Objective: {vp} VP (deck {deck})', { vp: d.objective.vp, deck: d.objective.deck })));
    }
    if (d.tokenSite) {
      const present = dv ? dv.token : true;
      const tx = box.x0 + 2; const ty = box.y0 + 2;
      g.append(s('g', { class: present ? 'token present' : 'token taken', 'data-testid': present ? 'token' : null },
        s('title', {}, present ? t('A face-down token') : t('Token site (token gone)')),
        s('path', { d: `M${tx} ${ty - 5.5} L${tx + 5.5} ${ty} L${tx} ${ty + 5.5} L${tx - 5.5} ${ty} Z` }),
        present ? s('text', { x: tx, y: ty + 2.3 }, TOKEN_LETTER) : null));
    }
    if (opts.onDistrict && targets.has(d.id)) {
      g.addEventListener('click', () => opts.onDistrict(d.id));
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); opts.onDistrict(d.id); }
      });
    }
    layer.append(g);
  }
  root.append(layer);

  if (opts.arrows && opts.arrows.length) {
    const arrows = s('g', { class: 'arrows' });
    for (const [from, to] of opts.arrows) {
      const a = byId.get(from); const b = byId.get(to);
      const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
      const ux = (b.x - a.x) / len; const uy = (b.y - a.y) / len;
      arrows.append(s('line', { class: 'arrow', x1: a.x + ux * 14, y1: a.y + uy * 14, x2: b.x - ux * 14,
        y2: b.y - uy * 14, 'marker-end': 'url(#arrow)' }));
    }
    root.append(arrows);
  }
  return root;
}

/** Squeeze any district name that is wider than its box (call once the SVG is in the document). */
export function fitLabels(svgRoot) {
  for (const text of svgRoot.querySelectorAll('text.d-name')) {
    const max = Number(text.getAttribute('data-maxw'));
    try {
      if (max && text.getComputedTextLength() > max) {
        text.setAttribute('textLength', max);
        text.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    } catch {
      // not rendered (e.g. display: none): leave it
    }
  }
}

/** The links along which a card's direction leads out of a district: [[from, to]]. */
export function linksInDirection(board, from, dir) {
  const out = [];
  for (const link of board.links) {
    if (link.from === from && link.dir === dir) out.push([from, link.to]);
    else if (link.to === from && OPPOSITE[link.dir] === dir) out.push([from, link.from]);
  }
  return out;
}

/** A key to the board's symbols. */
export function legend() {
  const item = (label, ...shapes) => h('span', { class: 'legend-item' },
    s('svg', { viewBox: '-9 -9 18 18', width: 20, height: 20 }, ...shapes), label);
  return h('div', { class: 'legend', 'data-testid': 'legend' },
    item(t('burning fire (fire cones)'), cone(0, 0, 2, false)),
    item(t('fire under control'), cone(0, 0, 1, true)),
    item(t('trained band'), band(0, 0, 1, false)),
    item(t('pinned trained band'), band(0, 0, 1, true)),
    item(t('pawn'), pawn(0, 0, 'blue', 0)),
    item(t('house / burnt slot'), s('rect', { class: 'house', x: -7, y: -3, width: SLOT, height: SLOT, fill: COLOUR_HEX.red }),
      s('rect', { class: 'house empty', x: 1, y: -3, width: SLOT, height: SLOT })),
    item(t('token'), s('g', { class: 'token present' }, s('path', { d: 'M0 -5.5 L5.5 0 L0 5.5 L-5.5 0 Z' }),
      s('text', { x: 0, y: 2.3 }, TOKEN_LETTER))),
    item(t('objective VP'), s('g', { class: 'objective' }, s('circle', { r: 6.2 }), s('text', { y: 2.6 }, '4'))),
    item(t('demolished'), s('rect', { x: -7, y: -7, width: 14, height: 14, fill: 'url(#hatch-legend)' }),
      s('defs', {}, s('pattern', { id: 'hatch-legend', width: 4, height: 4, patternUnits: 'userSpaceOnUse',
        patternTransform: 'rotate(45)' }, s('rect', { width: 4, height: 4, fill: '#9a9a9a' }),
      s('line', { x1: 0, y1: 0, x2: 0, y2: 4, stroke: '#555', 'stroke-width': 1.6 })))),
    item(t('diagonal link'), s('line', { class: 'link diagonal', x1: -7, y1: 7, x2: 7, y2: -7 })),
    item(t('you may click'), s('rect', { class: 'legend-target', x: -7, y: -7, width: 14, height: 14, rx: 3 })));
}

/// The console's charts (`console/charts.js`, loaded before `app.js`): SVG
/// drawn with DOM calls, every label an SVG text node, nothing parsed as
/// HTML. Apart from ConsoleScript so that file stays one job (it was 484
/// lines when the usage chart came).
enum ConsoleCharts {
    static let js = #"""
'use strict';
(() => {
  // Charts: SVG drawn with DOM calls; labels are SVG text nodes.

  const SVG = 'http://www.w3.org/2000/svg';
  const COLORS = ['#3d7eff', '#1b7f3b', '#a36200', '#b00020', '#7a3dff', '#00838f'];

  function svg(tag, attributes, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  const Charts = {
    bars(pairs) {
      const width = 640, row = 28, height = Math.max(1, pairs.length) * row + 10;
      const root = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'Open rooms by plugin', id: 'open-rooms-chart' });
      const max = Math.max(1, ...pairs.map(([, n]) => n));
      pairs.forEach(([plugin, count], index) => {
        const y = 5 + index * row;
        root.append(svg('text', { x: 0, y: y + 17, 'font-size': 13 }, plugin));
        root.append(svg('rect', { x: 140, y, width: Math.max(2, (width - 200) * count / max), height: row - 8, fill: COLORS[index % COLORS.length] }));
        root.append(svg('text', { x: 146 + (width - 200) * count / max, y: y + 17, 'font-size': 13 }, count));
      });
      if (pairs.length === 0) root.append(svg('text', { x: 0, y: 20, 'font-size': 13 }, 'no rooms'));
      return root;
    },

    lines(buckets, kinds) {
      const width = 640, height = 220, left = 36, bottom = 24, top = 24;
      const root = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'Room transitions per minute', id: 'transitions-chart' });
      const max = Math.max(1, ...buckets.flatMap((b) => kinds.map((k) => b[k])));
      const x = (i) => left + (width - left - 10) * (buckets.length > 1 ? i / (buckets.length - 1) : 0);
      const y = (n) => height - bottom - (height - bottom - top) * n / max;
      root.append(svg('line', { x1: left, y1: y(0), x2: width - 10, y2: y(0), stroke: '#999' }));
      root.append(svg('text', { x: 0, y: y(max) + 4, 'font-size': 11 }, max));
      root.append(svg('text', { x: 0, y: y(0) + 4, 'font-size': 11 }, 0));
      if (buckets.length) {
        root.append(svg('text', { x: left, y: height - 6, 'font-size': 11 }, new Date(buckets[0].minute).toLocaleTimeString()));
        root.append(svg('text', { x: width - 80, y: height - 6, 'font-size': 11 }, new Date(buckets[buckets.length - 1].minute).toLocaleTimeString()));
      }
      kinds.forEach((kind, index) => {
        const points = buckets.map((b, i) => x(i) + ',' + y(b[kind])).join(' ');
        // Dashes tell lines apart where they coincide (every create also joins its owner).
        root.append(svg('polyline', { points, fill: 'none', stroke: COLORS[index], 'stroke-width': index === 0 ? 4 : 2,
          'stroke-dasharray': ['none', '7 4', '2 3', '10 3 2 3'][index % 4], 'data-kind': kind }));
        root.append(svg('text', { x: left + index * 90, y: 14, 'font-size': 12, fill: COLORS[index] }, kind));
      });
      return root;
    },
    /** Room- and member-minutes per hour: two bars an hour, a legend, the first and last hour. */
    usage(items) {
      const width = 640, height = 220, left = 44, bottom = 24, top = 24;
      const root = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'Usage by hour', id: 'usage-chart' });
      const max = Math.max(1, ...items.flatMap((item) => [item.roomMinutes, item.memberMinutes]));
      const slot = (width - left - 10) / Math.max(1, items.length);
      const y = (n) => height - bottom - (height - bottom - top) * n / max;
      root.append(svg('line', { x1: left, y1: y(0), x2: width - 10, y2: y(0), stroke: '#999' }));
      root.append(svg('text', { x: 0, y: y(max) + 4, 'font-size': 11 }, Math.round(max)));
      root.append(svg('text', { x: 0, y: y(0) + 4, 'font-size': 11 }, 0));
      ['room-minutes', 'member-minutes'].forEach((name, index) =>
        root.append(svg('text', { x: left + index * 130, y: 14, 'font-size': 12, fill: COLORS[index] }, name)));
      items.forEach((item, i) => {
        const x = left + i * slot;
        [item.roomMinutes, item.memberMinutes].forEach((value, index) => root.append(svg('rect', {
          x: x + index * slot / 2, y: y(value), width: Math.max(1, slot / 2 - 1), height: y(0) - y(value), fill: COLORS[index],
          'data-hour': item.start, 'data-kind': index === 0 ? 'room' : 'member' })));
      });
      if (items.length) {
        root.append(svg('text', { x: left, y: height - 6, 'font-size': 11 }, new Date(items[0].start).toLocaleString()));
        root.append(svg('text', { x: width - 150, y: height - 6, 'font-size': 11 }, new Date(items[items.length - 1].start).toLocaleString()));
      } else {
        root.append(svg('text', { x: left, y: height / 2, 'font-size': 13 }, 'no usage in the last day'));
      }
      return root;
    },
  };

  window.RoomkeeperCharts = Charts;
})();
"""#
}

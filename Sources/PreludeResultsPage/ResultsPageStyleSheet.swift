/// The results page's CSS, inlined: system fonts only, light and dark through `prefers-color-scheme`.
enum ResultsPageStyleSheet {
    static let css = """
        :root { color-scheme: light dark; --bg: #f2f2f7; --card: #ffffff; --text: #1c1c1e; --muted: #6c6c70;
          --line: #d1d1d6; --ok: #248a3d; --warn: #b25000; --fail: #d70015; --pending: #8e8e93;
          --c0: #0066cc; --c1: #c93400; --c2: #248a3d; --c3: #8944ab; --c4: #b25000; --c5: #0071a4; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #000000; --card: #1c1c1e; --text: #f2f2f7; --muted: #aeaeb2; --line: #3a3a3c;
            --ok: #30d158; --warn: #ff9f0a; --fail: #ff453a; --pending: #98989d;
            --c0: #409cff; --c1: #ff8a65; --c2: #30d158; --c3: #da8fff; --c4: #ffb340; --c5: #5ac8f5; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 0 16px 32px; background: var(--bg); color: var(--text);
          font: 14px/1.45 -apple-system, BlinkMacSystemFont, "Helvetica Neue", Helvetica, Arial, "Liberation Sans",
            system-ui, sans-serif; }
        header, section, footer { max-width: 1200px; margin: 0 auto 16px; }
        header { padding: 16px 0 0; } h1 { font-size: 22px; margin: 0 0 4px; overflow-wrap: anywhere; }
        h2 { font-size: 17px; margin: 0 0 8px; }
        section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; }
        p { overflow-wrap: anywhere; } code { font-family: ui-monospace, Menlo, "DejaVu Sans Mono", monospace; }
        .note, footer { color: var(--muted); font-size: 12px; }
        ul.checks { list-style: none; margin: 0; padding: 0; }
        li.check { padding: 6px 0 6px 12px; border-left: 4px solid var(--pending); margin: 4px 0; overflow-wrap: anywhere; }
        li.check.ok { border-color: var(--ok); } li.check.warn { border-color: var(--warn); }
        li.check.fail { border-color: var(--fail); background: color-mix(in srgb, var(--fail) 10%, transparent); }
        .status { font-size: 11px; text-transform: uppercase; color: var(--muted); margin-right: 6px; }
        .scroll { overflow-x: auto; max-width: 100%; }
        table.arms { border-collapse: collapse; font-size: 12px; font-variant-numeric: tabular-nums; }
        table.arms th, table.arms td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left;
          white-space: nowrap; }
        table.arms td.num { text-align: right; }
        tr.control th { font-weight: 700; } small { color: var(--muted); }
        td.control-note { color: var(--muted); text-align: center; }
        .verdict.better { color: var(--ok); font-weight: 600; } .verdict.worse { color: var(--fail); font-weight: 600; }
        figure.chart-box { margin: 8px 0 16px; max-width: 760px; } figcaption { font-weight: 600; margin-bottom: 4px; }
        svg.chart { display: block; max-width: 100%; height: auto; }
        svg.chart .grid { stroke: var(--line); stroke-width: 1; } svg.chart .zero { stroke: var(--muted); stroke-width: 1.5; }
        svg.chart .tick { fill: var(--muted); font-size: 11px; }
        svg.chart .line { fill: none; stroke-width: 2; } svg.chart .band { stroke: none; opacity: 0.18; }
        svg.chart .marker { stroke: var(--muted); stroke-dasharray: 4 3; }
        .s0 { stroke: var(--c0); fill: var(--c0); } .s1 { stroke: var(--c1); fill: var(--c1); }
        .s2 { stroke: var(--c2); fill: var(--c2); } .s3 { stroke: var(--c3); fill: var(--c3); }
        .s4 { stroke: var(--c4); fill: var(--c4); } .s5 { stroke: var(--c5); fill: var(--c5); }
        svg.chart polyline.line { fill: none; }
        ul.legend { list-style: none; padding: 0; margin: 4px 0 0; display: flex; flex-wrap: wrap; gap: 4px 16px;
          font-size: 12px; }
        .swatch { display: inline-block; width: 12px; height: 3px; vertical-align: middle; margin-right: 6px; }
        .swatch.s0 { background: var(--c0); } .swatch.s1 { background: var(--c1); } .swatch.s2 { background: var(--c2); }
        .swatch.s3 { background: var(--c3); } .swatch.s4 { background: var(--c4); } .swatch.s5 { background: var(--c5); }
        .swatch.marker { background: var(--muted); }
        .banner { border-left: 6px solid var(--pending); padding: 8px 12px; border-radius: 6px;
          background: color-mix(in srgb, var(--pending) 10%, transparent); }
        .banner.ok { border-color: var(--ok); background: color-mix(in srgb, var(--ok) 12%, transparent); }
        .banner.warn { border-color: var(--warn); background: color-mix(in srgb, var(--warn) 14%, transparent); }
        .banner.fail { border-color: var(--fail); background: color-mix(in srgb, var(--fail) 14%, transparent); }
        .banner strong { font-size: 15px; } .banner ul { margin: 6px 0 0; padding-left: 18px; }
        .banner li { overflow-wrap: anywhere; }
        svg.chart .budget { stroke-dasharray: 8 4; }
        @media (prefers-color-scheme: dark) { svg.chart .band { opacity: 0.38; } }
        /* A phone: the chart's viewBox shrinks its text with it, so ticks are drawn larger to stay ~11 px; the
           verdict column stays in view while the table scrolls. */
        @media (max-width: 600px) {
          svg.chart { overflow: visible; } figure.chart-box { padding-left: 30px; }
          svg.chart .tick { font-size: 19px; }
          table.arms td:last-child, table.arms th:last-child { position: sticky; right: 0; background: var(--card);
            box-shadow: -6px 0 6px -6px var(--line); }
        }
        """
}

/// The page's CSS, inlined in every preview: system fonts only, iOS colours for light and dark.
///
/// The sizes of the screens here and of the text boxes (inline on each box, from ``ScreenGeometry``) are the
/// ones the overflow measure uses: alert 270 pt (238 pt of text), sheet 390 pt (342 pt of text).
enum PreviewStyleSheet {
    static let css = """
        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 0 24px 48px; background: #e5e5ea; color: #1c1c1e;
          font: 14px/1.4 -apple-system, BlinkMacSystemFont, "SF Pro Text", "Helvetica Neue", Helvetica, Arial,
            "Liberation Sans", system-ui, sans-serif; }
        input[name=theme] { position: absolute; opacity: 0; pointer-events: none; }
        header { background: #fff; margin: 0 -24px 24px; padding: 16px 24px; border-bottom: 1px solid #c6c6c8; }
        h1 { font-size: 22px; margin: 0 0 8px; }
        h2 { font-size: 20px; margin: 24px 0 8px; }
        h3 { font-size: 15px; margin: 16px 0 8px; font-weight: 600; }
        .top { font-size: 12px; font-weight: 400; margin-left: 8px; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0 0 8px; }
        dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
        code { font-family: ui-monospace, "SF Mono", Menlo, "DejaVu Sans Mono", monospace; font-size: 12px;
          overflow-wrap: anywhere; }
        .switch label { color: #007aff; cursor: pointer; text-decoration: underline; }
        #show-both:checked ~ header label[for=show-both], #show-light:checked ~ header label[for=show-light],
        #show-dark:checked ~ header label[for=show-dark] { font-weight: 700; text-decoration: none; color: inherit; }
        #show-light:checked ~ main .device.dark, #show-dark:checked ~ main .device.light { display: none; }
        table { border-collapse: collapse; font-size: 13px; }
        th, td { border: 1px solid #d1d1d6; padding: 4px 8px; text-align: left; vertical-align: top; }
        table.jump a, h3 { overflow-wrap: anywhere; }
        .badge { display: inline-block; border-radius: 8px; padding: 0 6px; font-size: 11px; color: #fff;
          background: #8e8e93; }
        .badge.error { background: #d70015; } .badge.overflow { background: #c93400; }
        .badge.changed { background: #7d2ae8; }
        tr.sev-error td:first-child { color: #d70015; font-weight: 600; }
        tr.sev-warning td:first-child { color: #a05a00; font-weight: 600; }
        ul.changes li.changed a, ul.changes li.added a { font-weight: 600; }
        section.feature { border-top: 2px solid #8e8e93; }
        .screens { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
        figure.screen { margin: 0; padding: 12px; background: #fff; border-radius: 12px; border: 2px solid transparent;
          max-width: 100%; }
        figure.screen.has-findings { border-color: #ff9f0a; }
        figure.screen.overflowing { border-color: #c93400; }
        figure.screen.changed, figure.screen.added { border-color: #7d2ae8; box-shadow: 0 0 0 3px #e3d4fb; }
        figcaption { font-size: 13px; margin-bottom: 8px; } figcaption small { color: #6c6c70; }
        .devices { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
        .side { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; padding: 4px;
          border: 1px dashed #c7c7cc; border-radius: 8px; }
        .side.live { opacity: 0.8; }
        .side-label { width: 100%; margin: 0; font-size: 12px; font-weight: 600; text-transform: uppercase; }
        .device { --bg: #ffffff; --fg: #000000; --fg2: #3c3c43; --dim: #f2f2f7; --surface: #f2f2f2;
          --sep: #c6c6c8; --tint: #007aff; --on-tint: #ffffff; color: var(--fg); border-radius: 20px; overflow: hidden;
          font-family: -apple-system, BlinkMacSystemFont, "SF Pro Text", "Helvetica Neue", Helvetica, Arial,
            "Liberation Sans", "Noto Sans CJK JP", "Noto Sans Arabic", "Noto Sans Hebrew", system-ui, sans-serif; }
        .device.dark { --bg: #000000; --fg: #ffffff; --fg2: #ebebf5; --dim: #1c1c1e; --surface: #2c2c2e;
          --sep: #545458; --tint: #0a84ff; --on-tint: #ffffff; }
        .device.alert { width: 310px; background: var(--dim); padding: 40px 20px; }
        .backdrop { display: flex; justify-content: center; }
        .alert-box { width: 270px; background: var(--surface); border-radius: 14px; overflow: hidden;
          text-align: center; }
        .alert-text { padding: 19px 16px 20px; }
        .alert-text .t-title + .t-message { margin-top: 2px; }
        .alert-buttons { display: flex; border-top: 0.5px solid var(--sep); }
        .alert-buttons .button { flex: 1 1 0; min-width: 0; padding: 11px 8px; color: var(--tint); }
        .alert-buttons.row .button + .button { border-inline-start: 0.5px solid var(--sep); }
        .alert-buttons.stacked { flex-direction: column; }
        .alert-buttons.stacked .button { flex: none; }
        .alert-buttons.stacked .button + .button { border-top: 0.5px solid var(--sep); }
        .then { margin: 8px 0 0; text-align: center; font-size: 12px; color: var(--fg2); }
        .device.sheet { width: 390px; background: var(--bg); box-shadow: inset 0 0 0 1px var(--sep); }
        .page { padding: 48px 24px 32px; min-height: 360px; display: flex; flex-direction: column; }
        .glyph { width: 64px; height: 64px; border-radius: 16px; background: var(--tint); margin: 0 auto 24px;
          opacity: 0.9; }
        .page .t-title { text-align: center; margin-bottom: 12px; }
        .page .t-message, .page .t-caption { text-align: center; color: var(--fg2); }
        .actions { margin-top: auto; padding-top: 32px; }
        .att-sheet { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; padding: 4px;
          border: 1px dashed #8e8e93; border-radius: 8px; max-width: 100%; }
        .badge.approx { background: #a05a00; text-transform: none; }
        .device.att { width: 390px; background: var(--bg); box-shadow: inset 0 0 0 1px var(--sep); }
        .att-page { padding: 40px 24px 24px; display: flex; flex-direction: column; overflow-wrap: anywhere; }
        .att-glyph { width: 56px; height: 56px; border-radius: 14px; background: var(--surface); margin: 0 auto 20px;
          box-shadow: inset 0 0 0 1px var(--sep); }
        .att-title { margin: 0 0 16px; text-align: center; font-size: 22px; line-height: 28px; font-weight: 700; }
        .att-body { font-size: 17px; line-height: 22px; color: var(--fg2); }
        .att-body p { margin: 0 0 12px; } .att-body ul { margin: 0 0 12px; padding-inline-start: 22px; }
        .att-body li + li { margin-top: 4px; }
        .att-more { margin: 4px 0 20px; color: var(--tint); font-size: 17px; }
        .att-more small { color: var(--fg2); font-size: 12px; }
        .att-buttons { display: flex; flex-direction: column; gap: 10px; }
        .att-button { margin: 0; padding: 14px 20px; border-radius: 14px; text-align: center; font-size: 17px;
          font-weight: 600; background: var(--surface); color: var(--tint); }
        .capsule { background: var(--tint); color: var(--on-tint); border-radius: 14px; padding: 14px 20px;
          text-align: center; }
        .system-button { margin: 24px auto 0; padding: 12px 20px; border-radius: 22px; background: var(--tint);
          color: var(--on-tint); font-size: 15px; font-weight: 600; text-align: center; }
        .t { margin: 0; overflow: hidden; overflow-wrap: anywhere; }
        .t.one-line { white-space: nowrap; text-overflow: ellipsis; overflow-wrap: normal; }
        .t.missing { font-style: italic; opacity: 0.5; }
        .t.flagged { outline: 2px dashed #ff9f0a; outline-offset: 2px; }
        mark { background: #ffd60a; color: #000; border-radius: 3px; }
        ul.notes { margin: 8px 0 0; padding-left: 18px; font-size: 12px; max-width: 640px; }
        ul.notes .rule { font-weight: 700; }
        ul.notes .sev-error .rule, ul.notes .overflow .rule { color: #d70015; }
        ul.notes .sev-warning .rule { color: #a05a00; }

        """
}

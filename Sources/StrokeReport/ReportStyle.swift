/// The page's style sheet, inlined so the report is one file. System fonts only (no web
/// fonts: nothing may load from the network); colours meet WCAG AA contrast on white.
enum ReportStyle {
    static let css = """
        :root {
          --ink: #1d2329; --quiet: #59636e; --rule: #d8dee4; --paper: #ffffff; --panel: #f6f8fa;
          --accent: #2166ac; --focus: #f59e0b;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
          color: var(--ink); background: var(--paper); line-height: 1.45;
        }
        body { margin: 0 auto; padding: 0 32px 48px; max-width: 1120px; }
        h1 { font-size: 1.9rem; margin: 0.1em 0 0.3em; letter-spacing: -0.01em; }
        h2 { font-size: 1.35rem; margin: 2.2em 0 0.6em; padding-bottom: 0.3em; border-bottom: 1px solid var(--rule); }
        h3 { font-size: 1.05rem; margin: 1.4em 0 0.5em; }
        h4 { font-size: 0.85rem; margin: 0.6em 0 0.4em; color: var(--quiet); font-weight: 600;
             text-transform: uppercase; letter-spacing: 0.04em; }
        a { color: var(--accent); }
        a:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip-link { position: absolute; left: -9999px; }
        .skip-link:focus { left: 16px; top: 8px; background: var(--paper); padding: 6px 10px; z-index: 1; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
                           clip: rect(0 0 0 0); white-space: nowrap; }
        .page-header { padding: 28px 0 8px; border-bottom: 3px solid var(--ink); }
        .eyebrow { margin: 0; font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.08em; color: var(--quiet); }
        .generated { margin: 0; color: var(--quiet); font-size: 0.9rem; }
        nav ul { list-style: none; padding: 0; margin: 14px 0 6px; display: flex; flex-wrap: wrap; gap: 4px 18px;
                 font-size: 0.92rem; }
        .lede { color: var(--quiet); max-width: 48em; }

        .cards { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 14px; }
        .cards li { background: var(--panel); border: 1px solid var(--rule); border-radius: 8px; padding: 12px 18px;
                    min-width: 150px; }
        .card-value { display: block; font-size: 1.8rem; font-weight: 700; font-variant-numeric: tabular-nums; }
        .card-label { color: var(--quiet); font-size: 0.88rem; }

        .columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 8px 40px; }
        table { border-collapse: collapse; }
        caption { text-align: left; font-weight: 600; padding: 0 0 6px; }
        .key-value { width: 100%; font-size: 0.92rem; }
        .key-value th { text-align: left; font-weight: 500; color: var(--quiet); padding: 4px 16px 4px 0;
                        vertical-align: top; white-space: nowrap; }
        .key-value td { padding: 4px 0; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.86rem;
                        overflow-wrap: anywhere; }
        .numbers { margin-top: 14px; font-variant-numeric: tabular-nums; font-size: 0.92rem; }
        .numbers th, .numbers td { padding: 5px 14px; border-bottom: 1px solid var(--rule); text-align: right; }
        .numbers th[scope=row], .numbers thead th:first-child { text-align: left; }
        .numbers thead th { border-bottom: 2px solid var(--ink); }
        .numbers tfoot th, .numbers tfoot td { border-top: 2px solid var(--ink); border-bottom: none; font-weight: 600; }
        .metrics td { min-width: 120px; }
        .bar { display: inline-block; width: 60px; height: 8px; margin-right: 10px; border-radius: 4px;
               background: linear-gradient(to right, var(--accent) calc(var(--value) * 100%), var(--rule) 0); }

        .heatmap-scroll { overflow-x: auto; padding: 4px 0 8px; }
        .heatmap { table-layout: fixed; border-collapse: collapse; border-spacing: 0; }
        .heatmap th, .heatmap td { padding: 0; }
        .heatmap thead th { font-weight: 600; padding: 0 4px 8px; text-align: center; vertical-align: bottom;
                            overflow-wrap: anywhere; }
        .heatmap tbody th { font-weight: 600; text-align: right; padding: 0 12px 0 0; overflow-wrap: anywhere; }
        .heatmap .corner { vertical-align: bottom; padding: 0 12px 8px 0; font-size: 0.75rem; color: var(--quiet);
                           text-align: right; line-height: 1.3; }
        .heatmap .corner .axis { display: block; }
        .heatmap td { box-shadow: inset 0 0 0 1px var(--paper); vertical-align: top; }
        .heatmap td.diagonal { box-shadow: inset 0 0 0 1px var(--paper), inset 0 0 0 3px rgba(255,255,255,0.35); }
        .heatmap .cell { box-sizing: border-box; padding: 10px 8px; overflow: hidden; display: flex;
                         flex-direction: column; align-items: center; }
        .heatmap .count { font-size: 1.7rem; font-weight: 700; line-height: 1.1; font-variant-numeric: tabular-nums; }
        .heatmap .share { font-size: 0.8rem; opacity: 0.92; }
        .heatmap td.diagonal .cell, .heatmap td.empty .cell { justify-content: center; }
        .heatmap.compact .cell { padding: 4px; justify-content: center; }
        .heatmap.compact .count { font-size: 1.15rem; }
        .heatmap.compact .share { font-size: 0.7rem; }
        .cell-link { color: inherit; text-decoration: none; }
        .cell-link .count { text-decoration: underline; text-decoration-thickness: 2px; text-underline-offset: 3px; }
        .previews { display: flex; flex-wrap: wrap; justify-content: center; gap: 2px; margin-top: 6px; width: 118px; }
        .previews img, .previews .more { width: 28px; height: 28px; }
        .previews .more { display: inline-flex; align-items: center; justify-content: center; font-size: 0.7rem;
                          font-weight: 700; background: rgba(0,0,0,0.55); color: #fff; }
        .legend { font-size: 0.85rem; color: var(--quiet); display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
        .swatch { display: inline-block; width: 16px; height: 16px; border-radius: 3px; }
        .ramp { display: inline-block; width: 120px; height: 12px; margin-left: 14px; border-radius: 3px;
                background: linear-gradient(to right, \(HeatmapColor.fill(share: 0, isDiagonal: true).hex), \
        \(HeatmapColor.fill(share: 0.5, isDiagonal: true).hex), \(HeatmapColor.fill(share: 1, isDiagonal: true).hex)); }

        img.drawing { image-rendering: pixelated; display: block; background: #000; }
        .no-image { display: inline-flex; align-items: center; justify-content: center; background: var(--panel);
                    color: var(--quiet); font-size: 0.7rem; border: 1px dashed var(--rule); }
        .thumbnails { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 12px; }
        .thumbnails figure { margin: 0; width: 84px; }
        .thumbnails figcaption { font-size: 0.75rem; line-height: 1.3; margin-top: 4px; }
        .thumbnails .confidence { font-weight: 700; font-variant-numeric: tabular-nums; }
        .thumbnails .source { display: block; color: var(--quiet); overflow: hidden; text-overflow: ellipsis;
                              white-space: nowrap; }
        .badge { font-size: 0.65rem; background: var(--ink); color: #fff; border-radius: 3px; padding: 0 4px; }
        .gallery { break-inside: avoid; }
        .gallery h3 .group-count { color: var(--quiet); font-weight: 400; }
        .back { font-size: 0.8rem; margin: 6px 0 0; }
        .confidence-rows { display: flex; flex-wrap: wrap; gap: 8px 48px; }

        .charts { display: flex; flex-wrap: wrap; gap: 8px 32px; }
        .chart { margin: 0; }
        .chart svg { max-width: 100%; height: auto; display: block; }
        .chart figcaption { font-size: 0.85rem; color: var(--quiet); }
        .chart .key { white-space: nowrap; margin-left: 10px; }
        .chart .key svg { display: inline; vertical-align: middle; }
        .chart .grid { stroke: var(--rule); stroke-width: 1; }
        .chart .axis { stroke: var(--ink); stroke-width: 1; }
        .chart .tick { font-size: 11px; fill: var(--quiet); font-variant-numeric: tabular-nums; }
        .chart .axis-title { font-size: 12px; fill: var(--quiet); }
        details { margin: 10px 0; }
        summary { cursor: pointer; color: var(--accent); }
        .folds { display: flex; flex-wrap: wrap; gap: 8px 40px; }
        .fold h3 { margin-top: 0.8em; }
        footer { margin-top: 48px; padding-top: 12px; border-top: 1px solid var(--rule); color: var(--quiet); font-size: 0.8rem; }

        @media print {
          :root { font-size: 10.5pt; }
          body { max-width: none; padding: 0; }
          nav, .skip-link, .back, summary { display: none; }
          details > *:not(summary) { display: block; }
          * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
          h2 { break-after: avoid; }
          section.gallery, .heatmap, .chart, figure, tr { break-inside: avoid; }
          a { color: inherit; text-decoration: none; }
          .heatmap-scroll { overflow: visible; }
        }
        @page { margin: 16mm 14mm; }
        """
}

"""The page's one inline style sheet: the report is one file, with no other to fetch."""

from __future__ import annotations

CSS = """
:root{--up:#1a7f37;--down:#cf222e;--flat:#8c959f;--line:#d0d7de;--muted:#57606a;
--rel:#1f6feb;--nonrel:#bf8700}
*{box-sizing:border-box}
body{margin:0;color:#1f2328;background:#fff;font:14px/1.45 system-ui,-apple-system,"Segoe UI",
Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif}
main{max-width:1060px;margin:0 auto;padding:0 20px 40px}
header{border-bottom:1px solid var(--line);padding:18px 0 10px;margin-bottom:8px}
header h1{font-size:22px;margin:0 0 4px}
header p{margin:0;color:var(--muted)}
nav{margin-top:8px;font-size:13px}
nav a{color:var(--rel);text-decoration:none;margin-right:14px}
h2{font-size:18px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 6px}
h4{font-size:14px;margin:14px 0 4px}
h1,h2,h3,h4,th,dd,figcaption{overflow-wrap:anywhere}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{border:1px solid var(--line);padding:3px 8px;vertical-align:top}
th{background:#f6f8fa;font-weight:600;text-align:left}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
th.num{white-space:normal}
th.metric{white-space:nowrap;overflow-wrap:normal}
th.group{text-align:center;min-width:6em}
.metrics-table th,.metrics-table td{padding:3px 6px}
td.up,span.up{color:var(--up);font-weight:600}
td.down,span.down{color:var(--down);font-weight:600}
span.weak{color:var(--muted)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:6px 0}
dt{color:var(--muted)}
dd{margin:0}
.note{color:var(--muted);font-size:12px}
.wide{overflow-x:auto;max-width:100%}
.caveat{border-left:3px solid var(--nonrel);background:#fff8c5;padding:6px 10px;margin:8px 0}
pre{background:#f6f8fa;border:1px solid var(--line);padding:8px 10px;overflow-x:auto;
font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
figure{margin:8px 0 14px}
figcaption{font-size:12px;color:var(--muted)}
.charts{display:flex;flex-wrap:wrap;gap:8px 24px}
.charts figure{flex:0 0 480px;max-width:100%}
svg.chart{max-width:100%;height:auto;display:block}
svg .grid{stroke:#eaeef2;stroke-width:1}
svg .zero{stroke:#57606a;stroke-width:1}
svg .axis-tick{stroke:#57606a}
svg .axis{font-size:11px;fill:#57606a}
svg .up{fill:var(--up)} svg .down{fill:var(--down)} svg .flat{fill:var(--flat)}
svg .cost{fill:#6e7781}
svg .rel{fill:var(--rel)} svg .nonrel{fill:var(--nonrel)} svg .all{fill:#6e7781}
svg .hit{fill:transparent} svg g.bar:hover .hit{fill:rgba(31,35,40,.07)}
.key{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:-1px}
.key.rel{background:var(--rel)} .key.nonrel{background:var(--nonrel)} .key.all{background:#6e7781}
.mover{border:1px solid var(--line);border-radius:6px;padding:6px 12px 8px;margin:8px 0;
break-inside:avoid}
.mover p{margin:4px 0}
.mover .why{font-weight:600}
.mover table{margin:4px 0}
.mover .body{display:flex;flex-wrap:wrap;gap:0 18px;align-items:flex-start}
.mover .signals{flex:none;max-width:100%;overflow-x:auto}
.mover .zeros{max-width:24em;margin:0 0 4px}
.mover .doc{flex:1 1 300px;min-width:0;overflow-wrap:anywhere}
mark{background:#fff1a8;padding:0 1px}
.mover span.rel{color:var(--up)} .mover span.nonrel{color:var(--down)}
.mover span.unj{color:var(--muted)} .mover p.text{color:#32383f}
.mover p.text.code{white-space:pre-wrap;font:12px/1.4 ui-monospace,monospace}
@media print{nav{display:none}main{max-width:none;padding:0}h2{break-after:avoid}
figure,table{break-inside:avoid}.wide{overflow:visible}.metrics-table{font-size:10px}}
"""

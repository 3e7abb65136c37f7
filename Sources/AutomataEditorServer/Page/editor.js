// The automata editor's page: pointer input on a canvas, one request per finished drawing,
// and the automaton the server sends back drawn clean over the ink. No libraries, no build.
"use strict";

const $ = (id) => document.getElementById(id);
const canvas = $("canvas");
const context = canvas.getContext("2d");

const editor = {
  session: null,
  automaton: null,      // the server's AutomatonView
  ink: [],              // strokes drawn so far, [[x, y, pressure], ...], shown faded under the automaton
  current: null,        // the stroke being drawn
  pendingGroup: null,   // strokes of one symbol drawn with "Several strokes"
  tool: "draw",
  simulation: null,     // {steps, position, result}
  busy: Promise.resolve(),
  version: null,        // the session's version this page shows (sent as If-Match)
};

// MARK: - Talking to the server

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  // Edits sent with the version this page shows: an undo, a rename... made on a session that
  // changed elsewhere (another tab) is refused with 409 instead of undoing someone else's work.
  if (method === "POST" && editor.version !== null) options.headers["If-Match"] = `"${editor.version}"`;
  const response = await fetch(`/api/sessions/${editor.session}${path}`, options);
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try { message = JSON.parse(text).error.message; } catch (_) { /* plain text */ }
    if (response.status === 409) await reloadSession();
    throw new Error(message || `${response.status}`);
  }
  return text;
}

/// The session as the server holds it now (after a 409: it changed elsewhere).
async function reloadSession() {
  const response = await fetch(`/api/sessions/${editor.session}`);
  if (response.ok) {
    const answer = await response.json();
    showAutomaton(answer.automaton, answer.version);
    render();
  }
}

// Requests run one after another, in the order the user made them.
function queue(work) {
  editor.busy = editor.busy.then(work).catch((error) => showStatus(error.message, true));
  return editor.busy;
}

async function edit(method, path, body) {
  const answer = JSON.parse(await api(method, path, body));
  applyAnswer(answer);
  return answer;
}

function applyAnswer(answer) {
  showAutomaton(answer.automaton, answer.version);
  if (answer.message) showStatus(answer.message, answer.verdict ? answer.verdict.rejected : false, answer.verdict);
  resetSimulation();
  render();
}

// The server keeps each session (committed before it answers), so a reload or a restarted
// server brings the drawing back: the page keeps its session in the address (#session=ID),
// which also makes a link to come back to it later.
function remembered() {
  const match = /^#session=([0-9a-zA-Z-]+)$/.exec(location.hash);
  return match ? match[1] : null;
}

function remember(session) {
  history.replaceState(null, "", `#session=${session}`);
}

async function startSession() {
  let answer = null;
  const saved = remembered();
  if (saved) {
    const response = await fetch(`/api/sessions/${encodeURIComponent(saved)}`);
    if (response.ok) answer = await response.json();
  }
  if (!answer) {
    const response = await fetch("/api/sessions", { method: "POST" });
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try { message = JSON.parse(text).error.message; } catch (_) { /* plain text */ }
      throw new Error(message || `${response.status}`);
    }
    answer = JSON.parse(text);
  }
  editor.session = answer.session;
  remember(answer.session);
  showAutomaton(answer.automaton, answer.version);
  if (saved === answer.session) showStatus("your drawing is back: the server kept it", false);
  document.body.dataset.session = answer.session;
  render();
}

// MARK: - Status line

function showStatus(message, rejected, verdict) {
  const status = $("status");
  let text = message;
  if (verdict) {
    const percent = Math.round(verdict.confidence * 100);
    const seen = verdict.classifierRejected ? `no shape (closest: ${verdict.label} ${percent}%)` : `${verdict.label} ${percent}%`;
    const rule = verdict.rule ? `, read as ${verdict.shape}: ${verdict.ruleDescription}` : "";
    text = `Stroke ${editor.automaton.strokesReceived}: ${seen}${rule} → ${message}`;
  }
  status.textContent = text;
  status.classList.toggle("rejected", !!rejected);
}

// MARK: - Drawing

function resizeCanvas() {
  const ratio = window.devicePixelRatio || 1;
  const box = canvas.getBoundingClientRect();
  canvas.width = Math.round(box.width * ratio);
  canvas.height = Math.round(box.height * ratio);
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  render();
}

function drawInk(stroke, alpha) {
  context.strokeStyle = `rgba(40, 60, 120, ${alpha})`;
  context.lineCap = "round";
  context.lineJoin = "round";
  for (let i = 1; i < stroke.length; i++) {
    const pressure = stroke[i][2] > 0 ? stroke[i][2] : 0.5;
    context.lineWidth = 1 + 3 * pressure;
    context.beginPath();
    context.moveTo(stroke[i - 1][0], stroke[i - 1][1]);
    context.lineTo(stroke[i][0], stroke[i][1]);
    context.stroke();
  }
}

function activeStates() {
  const sim = editor.simulation;
  if (!sim || sim.position < 0) return new Set();
  return new Set(sim.result.steps[sim.position].states);
}

// The clean automaton; `target` is a 2-D context (the page's, or an export's).
function drawAutomaton(target, automaton, highlighted) {
  target.lineWidth = 1.8;
  target.font = "15px system-ui, sans-serif";
  target.textAlign = "center";
  target.textBaseline = "middle";
  for (const edge of automaton.edges) {
    target.strokeStyle = edge.dangling ? "#b06000" : "#111";
    target.setLineDash(edge.dangling ? [6, 4] : []);
    target.stroke(new Path2D(edge.path));
    target.setLineDash([]);
    target.fillStyle = target.strokeStyle;
    target.beginPath();
    target.moveTo(edge.head[0][0], edge.head[0][1]);
    target.lineTo(edge.head[1][0], edge.head[1][1]);
    target.lineTo(edge.head[2][0], edge.head[2][1]);
    target.closePath();
    target.fill();
    if (edge.kind !== "initial") {
      const text = edge.label || "?";
      const width = target.measureText(text).width + 8;
      target.fillStyle = "rgba(255,255,255,.85)";
      target.fillRect(edge.labelX - width / 2, edge.labelY - 10, width, 20);
      target.fillStyle = edge.label ? "#0b3d91" : "#c05000";
      target.fillText(text, edge.labelX, edge.labelY);
    }
  }
  for (const state of automaton.states) {
    target.beginPath();
    target.arc(state.x, state.y, state.radius, 0, 2 * Math.PI);
    target.fillStyle = highlighted.has(state.name) ? "#ffe066" : "rgba(255,255,255,.9)";
    target.fill();
    target.strokeStyle = "#111";
    target.stroke();
    if (state.final) {
      target.beginPath();
      target.arc(state.x, state.y, state.radius * 0.82, 0, 2 * Math.PI);
      target.stroke();
    }
    target.fillStyle = "#111";
    target.fillText(state.name, state.x, state.y);
  }
}

// The text read from each handwritten label, in place: a tag over the label's strokes (under
// them for a state's name, which the state's circle covers), coloured by what it belongs to.
const LABEL_COLOURS = { transition: "#0b3d91", state: "#1a6b30", nothing: "#777" };

function labelTag(target, label) {
  const [minX, minY, maxX, maxY] = label.box;
  const text = (label.text || "?") + (label.confidence < 0.5 ? " ?" : "");
  target.font = "13px system-ui, sans-serif";
  const width = target.measureText(text).width + 8;
  const y = label.belongsTo === "state" ? maxY + 11 : minY - 11;
  return { text, x: (minX + maxX) / 2, y, width, height: 18 };
}

function drawLabels(target, automaton) {
  target.textAlign = "center";
  target.textBaseline = "middle";
  for (const label of automaton.labels || []) {
    const tag = labelTag(target, label);
    const colour = LABEL_COLOURS[label.belongsTo] || "#777";
    const [minX, minY, maxX, maxY] = label.box;
    target.strokeStyle = colour;
    target.lineWidth = 1;
    target.setLineDash([3, 3]);
    target.strokeRect(minX - 3, minY - 3, maxX - minX + 6, maxY - minY + 6);
    target.setLineDash([]);
    target.fillStyle = "rgba(255,255,255,.9)";
    target.fillRect(tag.x - tag.width / 2, tag.y - tag.height / 2, tag.width, tag.height);
    target.strokeRect(tag.x - tag.width / 2, tag.y - tag.height / 2, tag.width, tag.height);
    target.fillStyle = colour;
    target.fillText(tag.text, tag.x, tag.y);
  }
}

/// The handwritten label under a tap: its strokes' box (a little wider) or its tag.
function labelAt(x, y) {
  for (const label of editor.automaton.labels || []) {
    const [minX, minY, maxX, maxY] = label.box;
    const tag = labelTag(context, label);
    const inBox = x >= minX - 6 && x <= maxX + 6 && y >= minY - 6 && y <= maxY + 6;
    const inTag = Math.abs(x - tag.x) <= tag.width / 2 && Math.abs(y - tag.y) <= tag.height / 2;
    if (inBox || inTag) return label;
  }
  return null;
}

function render() {
  const box = canvas.getBoundingClientRect();
  context.clearRect(0, 0, box.width, box.height);
  for (const stroke of editor.ink) drawInk(stroke, 0.22);
  for (const stroke of editor.pendingGroup || []) drawInk(stroke, 0.9);
  if (editor.current) drawInk(editor.current, 0.9);
  if (editor.automaton) {
    drawAutomaton(context, editor.automaton, activeStates());
    drawLabels(context, editor.automaton);
  }
  if (editor.automaton && editor.automaton.states.length === 0 && editor.ink.length === 0 && !editor.current) {
    context.fillStyle = "#999";
    context.font = "16px system-ui, sans-serif";
    context.textAlign = "center";
    context.fillText("Draw a circle here to make a state", box.width / 2, box.height / 2);
  }
}

// The parts of the page outside the canvas that show the automaton: only when it changes.
function showAutomaton(automaton, version) {
  editor.automaton = automaton;
  if (version !== undefined) editor.version = version;
  updateWarnings();
  updateTable();
  $("undo").disabled = !automaton.canUndo;
  $("redo").disabled = !automaton.canRedo;
}

function updateWarnings() {
  $("warnings").textContent = editor.automaton.warnings.slice(0, 3).join(" · ");
}

function updateTable() {
  const table = $("table");
  const view = editor.automaton.table;
  table.replaceChildren();
  const head = table.insertRow();
  for (const title of ["", "δ", ...view.columns]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.appendChild(cell);
  }
  for (const row of view.rows) {
    const line = table.insertRow();
    line.dataset.state = row.state;
    for (const text of [row.marker, row.state, ...row.cells]) line.insertCell().textContent = text;
  }
}

// MARK: - Pointer input

function pointFrom(event) {
  const box = canvas.getBoundingClientRect();
  // Mice report pressure 0.5 while a button is down; pens and some touch screens report the real value.
  return [+(event.clientX - box.left).toFixed(1), +(event.clientY - box.top).toFixed(1), event.pressure || 0];
}

canvas.addEventListener("pointerdown", (event) => {
  if (event.button > 0) return;
  closeLabelEditor();
  canvas.setPointerCapture(event.pointerId);
  editor.current = [pointFrom(event)];
  editor.currentStart = performance.now();
  editor.pointerType = event.pointerType;
  render();
});

canvas.addEventListener("pointermove", (event) => {
  if (!editor.current) return;
  const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
  for (const each of events.length ? events : [event]) editor.current.push(pointFrom(each));
  render();
});

function finishStroke(event) {
  if (!editor.current) return;
  const stroke = editor.current;
  editor.current = null;
  const extent = strokeExtent(stroke);
  // A tap barely moves the pointer; a dot or a comma written with the pen has a few points.
  const isTap = extent < 6 && stroke.length <= 3;
  if (editor.tool === "final" || (editor.tool === "draw" && isTap && !editor.pendingGroup)) {
    tap(stroke[0][0], stroke[0][1]);
    render();
    return;
  }
  if (editor.tool === "erase") {
    queue(() => edit("POST", "/erase", { strokes: [stroke.map((p) => [p[0], p[1]])] }));
    render();
    return;
  }
  if (editor.pendingGroup) {
    editor.pendingGroup.push(stroke);
    render();
    return;
  }
  editor.ink.push(stroke);
  sendDrawing([stroke], editor.pointerType);
  render();
}
canvas.addEventListener("pointerup", finishStroke);
canvas.addEventListener("pointercancel", finishStroke);

function strokeExtent(stroke) {
  const xs = stroke.map((p) => p[0]), ys = stroke.map((p) => p[1]);
  return Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
}

// A new transition opens the symbols box at once, except for a pen: with a pen the symbols are
// written beside the arrow (the box would cover that place); tapping the label opens the box.
function sendDrawing(strokes, pointerType) {
  queue(async () => {
    const answer = await edit("POST", "/strokes", { strokes: strokes.map((s) => s.map((p) => [p[0], p[1]])) });
    const verdict = answer.verdict;
    if (pointerType !== "pen" && verdict && !verdict.rejected && verdict.transition !== undefined && verdict.transition !== null) {
      openLabelEditor({ kind: "transition", id: verdict.transition });
    }
  });
}

// A tap: toggle final with the Final tool; otherwise edit the name or symbols under the finger.
function tap(x, y) {
  if (!editor.automaton) return;
  const state = editor.automaton.states.find((s) => Math.hypot(s.x - x, s.y - y) <= s.radius);
  if (editor.tool === "final") {
    if (state) queue(() => edit("POST", `/states/${state.id}/final`, { final: !state.final }));
    else showStatus("Tap inside a state to make it final (or non-final).", true);
    return;
  }
  // A handwritten label: the box of what it labels, prefilled with what was read, to correct it.
  const label = labelAt(x, y);
  if (label && label.owner !== null && label.owner !== undefined) {
    openLabelEditor({ kind: label.belongsTo, id: label.owner });
    return;
  }
  if (label) {
    showStatus(`"${label.text}" belongs to nothing: write symbols beside an arrow, a name inside a state.`, true);
    return;
  }
  const edge = editor.automaton.edges
    .filter((e) => e.kind !== "initial")
    .map((e) => ({ e, d: Math.hypot(e.labelX - x, e.labelY - y) }))
    .sort((a, b) => a.d - b.d)[0];
  if (edge && edge.d <= 22) openLabelEditor({ kind: "transition", id: edge.e.id });
  else if (state) openLabelEditor({ kind: "state", id: state.id });
}

// MARK: - Names and symbols, typed in place

function openLabelEditor(target) {
  const form = $("label-editor");
  const input = $("label-input");
  const epsilon = $("epsilon");
  let anchor;
  if (target.kind === "state") {
    const state = editor.automaton.states.find((s) => s.id === target.id);
    if (!state) return;
    $("label-editor-title").textContent = "State name";
    input.value = state.name;
    epsilon.hidden = true;
    $("label-hint").textContent = "Enter to rename.";
    anchor = { x: state.x, y: state.y };
  } else {
    const edge = editor.automaton.edges.find((e) => e.id === target.id);
    if (!edge) return;
    $("label-editor-title").textContent = "Symbols";
    input.value = edge.symbols.join(", ");
    epsilon.hidden = false;
    epsilon.setAttribute("aria-pressed", String(edge.epsilon));
    $("label-hint").textContent = "Several symbols: a, b — ε: also a move without input.";
    anchor = { x: edge.labelX, y: edge.labelY };
  }
  form.dataset.kind = target.kind;
  form.dataset.id = String(target.id);
  form.hidden = false;
  form.anchor = anchor;
  placeLabelEditor();
  input.focus();
  input.select();
}

// Keep the box next to what it edits but inside the visible area: above the element when
// it sits in the lower half (where an on-screen keyboard would cover a box below it).
function placeLabelEditor() {
  const form = $("label-editor");
  if (form.hidden || !form.anchor) return;
  const box = canvas.getBoundingClientRect();
  const viewport = window.visualViewport || { offsetTop: 0, offsetLeft: 0, height: window.innerHeight, width: window.innerWidth };
  const x = box.left + form.anchor.x, y = box.top + form.anchor.y;
  const width = form.offsetWidth, height = form.offsetHeight;
  const visibleTop = viewport.offsetTop, visibleBottom = viewport.offsetTop + viewport.height;
  let top = y > (visibleTop + visibleBottom) / 2 ? y - height - 28 : y + 28;
  top = Math.max(visibleTop + 4, Math.min(top, visibleBottom - height - 4));
  const left = Math.max(viewport.offsetLeft + 4, Math.min(x - width / 2, viewport.offsetLeft + viewport.width - width - 4));
  form.style.top = `${top}px`;
  form.style.left = `${left}px`;
}
if (window.visualViewport) window.visualViewport.addEventListener("resize", placeLabelEditor);

function closeLabelEditor() {
  $("label-editor").hidden = true;
}

$("epsilon").addEventListener("click", () => {
  const button = $("epsilon");
  button.setAttribute("aria-pressed", String(button.getAttribute("aria-pressed") !== "true"));
});

$("label-editor").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = $("label-editor");
  const id = form.dataset.id;
  const value = $("label-input").value;
  closeLabelEditor();
  if (form.dataset.kind === "state") {
    queue(() => edit("POST", `/states/${id}/name`, { name: value.trim() }));
  } else {
    // "ε" typed as a symbol means the ε flag, so the keyboard alone is enough too.
    const parts = value.split(/[,\s]+/).filter((s) => s.length > 0);
    const epsilon = $("epsilon").getAttribute("aria-pressed") === "true" || parts.some((s) => s === "ε" || s === "eps");
    const symbols = parts.filter((s) => s !== "ε" && s !== "eps");
    queue(() => edit("POST", `/transitions/${id}/symbols`, { symbols, epsilon }));
  }
});
$("label-input").addEventListener("keydown", (event) => { if (event.key === "Escape") closeLabelEditor(); });

// MARK: - Tools and history

for (const button of document.querySelectorAll(".tool")) {
  button.addEventListener("click", () => {
    editor.tool = button.dataset.tool;
    for (const other of document.querySelectorAll(".tool")) other.classList.toggle("active", other === button);
    canvas.style.cursor = editor.tool === "erase" ? "cell" : "crosshair";
  });
}

$("group-strokes").addEventListener("click", () => {
  const button = $("group-strokes");
  if (editor.pendingGroup) {
    const strokes = editor.pendingGroup;
    editor.pendingGroup = null;
    button.textContent = "+ Several strokes";
    button.setAttribute("aria-pressed", "false");
    if (strokes.length) {
      editor.ink.push(...strokes);
      sendDrawing(strokes, editor.pointerType);
    }
  } else {
    editor.pendingGroup = [];
    button.textContent = "✓ Done";
    button.setAttribute("aria-pressed", "true");
    showStatus("Draw the strokes of one symbol, then press Done.", false);
  }
  render();
});

$("undo").addEventListener("click", () => queue(() => edit("POST", "/undo")));
$("redo").addEventListener("click", () => queue(() => edit("POST", "/redo")));
document.addEventListener("keydown", (event) => {
  if (!(event.ctrlKey || event.metaKey) || event.target.tagName === "INPUT") return;
  if (event.key === "z" && !event.shiftKey) { event.preventDefault(); $("undo").click(); }
  if (event.key === "y" || (event.key === "z" && event.shiftKey)) { event.preventDefault(); $("redo").click(); }
});

$("clear").addEventListener("click", () => $("confirm-clear").showModal());
$("confirm-clear-no").addEventListener("click", () => $("confirm-clear").close());
$("confirm-clear-yes").addEventListener("click", () => {
  $("confirm-clear").close();
  editor.ink = [];
  queue(() => edit("POST", "/clear"));
});

$("help-button").addEventListener("click", () => $("help").showModal());
$("help-close").addEventListener("click", () => $("help").close());

// MARK: - Simulation, step by step

$("show-panel").addEventListener("click", () => {
  $("panel").hidden = !$("panel").hidden;
  resizeCanvas();
});

async function simulate() {
  const word = $("word").value.trim();
  const result = JSON.parse(await api("POST", "/simulate", { word }));
  editor.simulation = { word, result, position: -1 };
  return editor.simulation;
}

function resetSimulation() {
  editor.simulation = null;
  $("trace").replaceChildren();
  $("verdict").textContent = "";
  $("verdict").className = "";
}

function showTrace() {
  const sim = editor.simulation;
  const result = sim.result;
  const list = $("trace");
  list.replaceChildren();
  result.steps.slice(0, sim.position + 1).forEach((step, index) => {
    const item = document.createElement("li");
    const set = `{${step.states.join(", ")}}`;
    if (step.symbol == null) item.textContent = `start: ${set}`;
    else if (step.unchanged) {
      item.innerHTML = "";
      item.append(`read ${step.symbol}: ${set} `);
      const note = document.createElement("span");
      note.className = "unchanged";
      note.textContent = "(no change: the same states as before)";
      item.append(note);
    } else item.textContent = `read ${step.symbol}: ${set}`;
    item.classList.toggle("current", index === sim.position);
    list.appendChild(item);
  });
  const verdict = $("verdict");
  const done = sim.position === result.steps.length - 1;
  if (!done) {
    const next = result.symbols[sim.position];
    verdict.textContent = `next symbol: ${next} (${sim.position} of ${result.symbols.length} read)`;
    verdict.className = "";
  } else {
    const shown = sim.word === "" ? "the empty word" : `"${sim.word}"`;
    verdict.textContent = result.accepted ? `${shown} accepted` : `${shown} rejected: ${result.reason}`;
    verdict.className = result.accepted ? "accepted" : "rejected";
  }
  render();
}

$("run").addEventListener("click", () => queue(async () => {
  const sim = await simulate();
  sim.position = sim.result.steps.length - 1;
  showTrace();
}));

$("step").addEventListener("click", () => queue(async () => {
  const word = $("word").value.trim();
  if (!editor.simulation || editor.simulation.word !== word) await simulate();
  const sim = editor.simulation;
  sim.position = Math.min(sim.position + 1, sim.result.steps.length - 1);
  showTrace();
}));

$("reset-sim").addEventListener("click", () => { resetSimulation(); render(); });
$("word").addEventListener("keydown", (event) => { if (event.key === "Enter") $("run").click(); });

// MARK: - Files

$("menu-button").addEventListener("click", () => { $("menu").hidden = !$("menu").hidden; });

function download(name, blob) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  $("menu").hidden = true;
}

$("save").addEventListener("click", () => queue(async () => {
  download("sketch.automaton", new Blob([await api("GET", "/document")], { type: "application/json" }));
}));
$("export-jff").addEventListener("click", () => queue(async () => {
  download("automaton.jff", new Blob([await api("GET", "/export.jff")], { type: "application/xml" }));
}));
$("export-tex").addEventListener("click", () => queue(async () => {
  download("automaton.tex", new Blob([await api("GET", "/export.tex")], { type: "application/x-tex" }));
}));
$("export-dot").addEventListener("click", () => queue(async () => {
  download("automaton.dot", new Blob([await api("GET", "/export.dot")], { type: "text/vnd.graphviz" }));
}));
$("export-svg").addEventListener("click", () => queue(async () => {
  download("automaton.svg", new Blob([await api("GET", "/export.svg")], { type: "image/svg+xml" }));
}));
// PNG: the clean automaton drawn by the page itself into an off-screen canvas.
$("export-png").addEventListener("click", () => {
  const box = canvas.getBoundingClientRect();
  const image = document.createElement("canvas");
  image.width = Math.round(box.width * 2);
  image.height = Math.round(box.height * 2);
  const target = image.getContext("2d");
  target.scale(2, 2);
  target.fillStyle = "#fff";
  target.fillRect(0, 0, box.width, box.height);
  drawAutomaton(target, editor.automaton, new Set());
  image.toBlob((blob) => download("automaton.png", blob), "image/png");
});
$("load").addEventListener("click", () => $("load-file").click());
$("load-file").addEventListener("change", () => {
  const file = $("load-file").files[0];
  if (!file) return;
  $("menu").hidden = true;
  queue(async () => {
    const text = await file.text();
    editor.ink = [];
    // .automaton, JFLAP .jff or InkML ink: the server tells them apart; ink comes back to show.
    const answer = await edit("POST", "/open", text);
    if (answer.ink) {
      editor.ink = answer.ink.map((stroke) => stroke.map(([x, y]) => [x, y, 0.5]));
      render();
    }
    $("load-file").value = "";
  });
});

// MARK: - Start

// The canvas changes size with the window and when the simulation panel opens or grows.
new ResizeObserver(resizeCanvas).observe(canvas);
startSession().then(resizeCanvas).catch((error) => showStatus(`cannot start a session: ${error.message}`, true));
// For tests and scripts: wait until every request made so far has been answered.
window.editorIdle = () => editor.busy.then(() => true);

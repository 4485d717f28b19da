// report.html's own script: draws every table and chart of a run's page (or a comparison's) from the data aisim
// embedded in the page (#aisim-data: results.json as written, the time series reduced for drawing). It computes
// no metric: every number shown is read from results.json or timeseries.csv, and formatted with its unit.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("aisim-data").textContent);
  const root = document.getElementById("report");
  root.textContent = "";
  // Drawn once, at once: a page that is printed, screenshot or forwarded shows its final state.
  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = 'system-ui, "DejaVu Sans", "Liberation Sans", sans-serif';
  const PALETTE = ["#2458b3", "#d9822b", "#1e7b34", "#b3261e", "#7a4fb3", "#0f8a8a", "#8a6d0f", "#b34f8a",
                   "#5b6475", "#3d8fd9"];
  const STALL_COLORS = {compute: "#1e7b34", data: "#d9822b", checkpoint: "#2458b3", failure: "#b3261e",
                        idle: "#c5cad3"};

  // ---- units ---------------------------------------------------------------------------------------------------
  function num(v, digits) {
    return Number(v).toLocaleString("en-US", {maximumFractionDigits: digits === undefined ? 2 : digits});
  }
  function sig(v) {
    const a = Math.abs(v);
    return a >= 100 ? num(v, 0) : a >= 10 ? num(v, 1) : num(v, 2);
  }
  function scaled(raw, unit, steps) {
    const v = Number(Number(raw).toPrecision(3)); // the prefix chosen on what is shown: 999.99 MB is "1 GB"
    const a = Math.abs(v);
    for (let i = steps.length - 1; i >= 0; --i)
      if (a >= steps[i][0]) return sig(v / steps[i][0]) + " " + steps[i][1] + unit;
    return sig(v) + " " + unit;
  }
  const SI = [[1, ""], [1e3, "k"], [1e6, "M"], [1e9, "G"], [1e12, "T"], [1e15, "P"], [1e18, "E"]];
  const fmt = {
    bytes: (v) => v === null || v === undefined ? "-" : scaled(v, "B", SI),
    rate: (v) => v === null || v === undefined ? "-" : scaled(v, "B/s", SI),
    pct: (v) => v === null || v === undefined ? "-" : num(100 * v, 1) + " %",
    usd: (v) => v === null || v === undefined ? "-" : (v < 0 ? "-$" : "$") + (Math.abs(v) < 100 ?
      Math.abs(v).toLocaleString("en-US", {minimumFractionDigits: 2, maximumFractionDigits: 2}) : num(Math.abs(v), 0)),
    count: (v) => v === null || v === undefined ? "-" : num(v, 0),
    x: (v) => v === null || v === undefined ? "-" : (v >= 1000 ? ">1,000" : sig(v)) + "x",
    hours: (v) => v === null || v === undefined ? "-" : num(v, 1) + " GPU-h",
    seconds: (s) => {
      if (s === null || s === undefined) return "-";
      const a = Math.abs(s);
      if (a === 0) return "0 s";
      if (a < 1e-3) return sig(s * 1e6) + " µs";
      if (a < 1) return sig(s * 1e3) + " ms";
      if (a < 120) return sig(s) + " s";
      if (a < 7200) return sig(s / 60) + " min";
      if (a < 172800) return sig(s / 3600) + " h";
      if (a < 31536000) return sig(s / 86400) + " d";
      return sig(s / 31536000) + " y"; // 365 d, as the summary (models::format_duration) prints a horizon
    },
  };
  function words(key) { return String(key).replace(/_/g, " "); }
  function get(obj, path, fallback) {
    let v = obj;
    for (const k of path) {
      if (v === null || v === undefined || !(k in Object(v))) return fallback;
      v = v[k];
    }
    return v === undefined ? fallback : v;
  }

  // ---- page building -------------------------------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else e.setAttribute(k, v);
    }
    for (const c of children)
      if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }
  function section(title, note) {
    const s = el("section", {}, el("h2", {}, title));
    if (note) s.append(el("p", {class: "note"}, note));
    root.append(s);
    return s;
  }
  // rows: arrays of cells; a cell is text, or {v, cls} for a class (numbers right-aligned with "num").
  function table(parent, headers, rows, numeric) {
    const isNum = (i) => numeric && numeric.includes(i);
    const t = el("table", {}, el("thead", {}, el("tr", {}, ...headers.map((h, i) =>
      el("th", isNum(i) ? {class: "num"} : {}, h)))));
    const body = el("tbody");
    for (const r of rows)
      body.append(el("tr", {}, ...r.map((c, i) => {
        const cell = c !== null && typeof c === "object" && !(c instanceof Node) ? c : {v: c};
        const cls = [isNum(i) ? "num" : "", cell.cls || ""].join(" ").trim();
        return el("td", cls ? {class: cls} : {}, cell.v === undefined ? "" : cell.v);
      })));
    t.append(body);
    parent.append(t);
    return t;
  }
  function cards(parent, items) {
    const box = el("div", {class: "cards"});
    for (const [label, value, sub] of items)
      box.append(el("div", {class: "card"}, el("div", {class: "label"}, label), el("div", {class: "value"}, value),
                    sub ? el("div", {class: "sub"}, sub) : null));
    parent.append(box);
  }
  const charts = [];
  // A chart with no data point is not drawn: an empty frame says nothing.
  function chart(parent, config, small) {
    const points = config.data.datasets.reduce((n, ds) => n + (ds.data || []).length, 0);
    if (!points) return;
    const box = el("div", {class: small ? "chart small" : "chart"});
    const canvas = el("canvas", {role: "img", "aria-label": get(config, ["options", "plugins", "title", "text"], "chart")});
    box.append(canvas);
    parent.append(box);
    charts.push(new Chart(canvas, config));
  }
  // Options for a chart whose y values carry `unit` (a fmt key) and x values are simulated time in seconds.
  let simulatedS;
  function timeOptions(title, unit, stacked, yMax) {
    return {
      parsing: false, normalized: true, spanGaps: true,
      interaction: {mode: "index", intersect: false},
      plugins: {
        title: {display: true, text: title},
        tooltip: {callbacks: {
          title: (items) => items.length ? "at " + fmt.seconds(items[0].parsed.x) : "",
          label: (c) => c.dataset.label + ": " + fmt[unit](c.parsed.y),
        }},
        decimation: {enabled: true, algorithm: "lttb", samples: 800},
      },
      scales: {
        x: {type: "linear", min: 0, max: simulatedS, title: {display: true, text: "simulated time"},
            ticks: {callback: (v) => fmt.seconds(v), maxTicksLimit: 12}},
        y: {stacked: !!stacked, beginAtZero: true, max: yMax, title: {display: true, text: unit === "pct" ? "share" : unit},
            ticks: {callback: (v) => fmt[unit](v)}},
      },
      elements: {point: {radius: 0}, line: {borderWidth: 1.5}},
    };
  }
  function series(ts, column) {
    const t = ts.columns.time_s, v = ts.columns[column];
    if (!v) return null;
    // A row is its bin's start; the last bin's value holds to the period's end, so the line covers the period.
    const points = t.map((x, i) => ({x: x, y: v[i]}));
    if (points.length && points[points.length - 1].x < simulatedS)
      points.push({x: simulatedS, y: v[v.length - 1]});
    return points;
  }
  function barOptions(title, unit, horizontal, stacked) {
    const value = horizontal ? "x" : "y";
    const o = {
      indexAxis: horizontal ? "y" : "x",
      plugins: {title: {display: true, text: title},
                tooltip: {callbacks: {label: (c) => (c.dataset.label ? c.dataset.label + ": " : "") +
                                               fmt[unit](c.parsed[value])}}},
      scales: {},
    };
    o.scales[value] = {stacked: !!stacked, beginAtZero: true, ticks: {callback: (v) => fmt[unit](v)}};
    o.scales[horizontal ? "y" : "x"] = {stacked: !!stacked};
    return o;
  }

  // ---- one run -------------------------------------------------------------------------------------------------
  function header(r) {
    const sc = r.scenario || {};
    root.append(el("h1", {}, "aisim report: " + (sc.name || "run")));
    // A what-if is not the scenario as written: its overrides come first, before the description they may belie.
    const overrides = get(r, ["provenance", "overrides"], []);
    if (overrides.length)
      root.append(el("p", {class: "whatif"}, "what-if: " +
                      overrides.map((x) => x.pointer + " = " + x.value).join(", ")));
    if (sc.description) root.append(el("p", {class: "note"}, sc.description + (overrides.length ?
                                        " (the scenario as written; the what-if above changes it)" : "")));
    const p = r.provenance || {};
    root.append(el("div", {class: "meta"},
      fmt.count(get(r, ["gpu", "count"], 0)) + " GPUs, " + fmt.seconds(get(r, ["sim", "simulated_s"], 0)) +
      " simulated in " + num(get(r, ["sim", "wall_s"], 0), 2) + " s (" + fmt.count(get(r, ["sim", "events"], 0)) +
      " events); aisim " + (p.aisim_version || "?") + " (" + (p.git_commit || "?") + "), SimGrid " +
      (p.simgrid_version || "?") + ", seed " + (p.seed === undefined ? "?" : p.seed)));
  }

  function summary(r) {
    const s = section("Summary", "GPU time of the whole cluster over the simulated period; the fractions sum to 1.");
    const g = r.gpu || {}, st = g.stall || {}, c = r.cost || {};
    const items = [
      ["GPU utilization", fmt.pct(g.utilization), "computing or serving"],
      ["data stall", fmt.pct(st.data), "waiting for reads"],
      ["checkpoint stall", fmt.pct(st.checkpoint), "waiting for checkpoints"],
      ["failure", fmt.pct(st.failure), "lost to failures"],
      ["idle", fmt.pct(st.idle), "no job on the GPUs"],
    ];
    if (c.total_usd !== undefined)
      items.push(["spend over " + fmt.seconds(c.horizon_s), fmt.usd(c.total_usd),
                  c.usd_per_useful_gpu_hour ? fmt.usd(c.usd_per_useful_gpu_hour) + " per useful GPU-hour" : ""]);
    if (c.total_with_lost_gpu_usd !== undefined)
      items.push(["cost with lost GPU time", fmt.usd(c.total_with_lost_gpu_usd),
                  "spend + " + fmt.usd(c.gpu_stalled_usd) + " of GPU time stalled or lost to failures"]);
    for (const j of r.jobs || []) {
      const ck = j.checkpoints || {};
      if (ck.count > 0)
        items.push(["checkpoint write, " + j.name, fmt.seconds(get(ck, ["write_s", "mean"])),
                    "p99 " + fmt.seconds(get(ck, ["write_s", "p99"])) + ", " + fmt.count(ck.count) + " written"]);
    }
    cards(s, items);
  }

  function gpuTime(r, ts) {
    const s = section("GPU utilization over time",
      "Share of all GPUs in each state, stacked; hover for values. " + pointsNote(ts));
    const parts = [["computing", "gpu_utilization", "compute"], ["data stall", "stall_data", "data"],
                   ["checkpoint stall", "stall_checkpoint", "checkpoint"], ["failure", "stall_failure", "failure"],
                   ["idle", "idle", "idle"]];
    const datasets = parts.map(([label, col, key]) => ({
      label: label, data: series(ts, col) || [], fill: true, borderColor: STALL_COLORS[key],
      backgroundColor: STALL_COLORS[key] + "cc", stack: "gpu"}));
    chart(s, {type: "line", data: {datasets: datasets}, options: timeOptions("GPU time by state", "pct", true, 1)});
  }
  function pointsNote(ts) {
    return ts.bins_per_point > 1 ? "Each point is the mean of " + ts.bins_per_point +
      " consecutive bins of timeseries.csv (" + fmt.count(ts.rows) + " in all)." : "One point per bin of timeseries.csv.";
  }

  function jobs(r) {
    const s = section("Jobs");
    table(s, ["job", "kind", "GPUs", "utilization", "data stall", "checkpoint stall", "failure", "steps",
              "checkpoints", "write mean", "write p99", "status"],
      (r.jobs || []).map((j) => [j.name, words(j.kind), fmt.count(j.gpus), fmt.pct(j.utilization),
        fmt.pct(get(j, ["stall", "data"])), fmt.pct(get(j, ["stall", "checkpoint"])), fmt.pct(get(j, ["stall", "failure"])),
        fmt.count(j.steps), fmt.count(get(j, ["checkpoints", "count"], 0)),
        get(j, ["checkpoints", "count"], 0) ? fmt.seconds(get(j, ["checkpoints", "write_s", "mean"])) : "-",
        get(j, ["checkpoints", "count"], 0) ? fmt.seconds(get(j, ["checkpoints", "write_s", "p99"])) : "-",
        j.status === "failed" ? {v: "failed: " + (j.failure || ""), cls: "warn"} : "ok"]),
      [2, 3, 4, 5, 6, 7, 8, 9, 10]);
  }

  // The time series' columns of one system: NAME_read_Bps, NAME_write_Bps, NAME_used_bytes, NAME_CLASS_bytes. A
  // column belongs to the longest system name it starts with, so "hot" and "hot_2" stay apart.
  function columnsOf(ts, r, name) {
    const names = (r.storage || []).map((x) => x.name);
    const own = (col) => {
      let best = null;
      for (const n of names)
        if (col.startsWith(n + "_") && (best === null || n.length > best.length)) best = n;
      return best === name;
    };
    const classes = Object.keys(ts.columns).filter((c) => own(c) && c.endsWith("_bytes") && c !== name + "_used_bytes")
      .map((c) => c.slice(name.length + 1, -"_bytes".length));
    return {read: name + "_read_Bps", write: name + "_write_Bps", classes: classes};
  }

  function storage(r, ts) {
    const s = section("Storage systems",
      "Throughput and occupancy per system over time; copies between systems count at both ends. " + pointsNote(ts));
    table(s, ["system", "kind", "drives", "read", "written", "peak read", "peak write", "peak used", "capacity"],
      (r.storage || []).map((x) => [x.name, words(x.kind), fmt.count(x.drives), fmt.bytes(x.read_bytes),
        fmt.bytes(x.write_bytes), fmt.rate(x.peak_read_Bps), fmt.rate(x.peak_write_Bps), fmt.bytes(x.peak_used_bytes),
        fmt.bytes(x.capacity_bytes)]), [2, 3, 4, 5, 6, 7, 8]);
    for (const x of r.storage || []) {
      const cols = columnsOf(ts, r, x.name);
      const grid = el("div", {class: "grid2"});
      s.append(el("h3", {}, x.name + " (" + words(x.kind) + ")"), grid);
      chart(grid, {type: "line", data: {datasets: [
        {label: "read", data: series(ts, cols.read) || [], borderColor: PALETTE[0], backgroundColor: PALETTE[0]},
        {label: "write", data: series(ts, cols.write) || [], borderColor: PALETTE[1], backgroundColor: PALETTE[1]}]},
        options: timeOptions(x.name + ": throughput", "rate", false)}, true);
      chart(grid, {type: "line", data: {datasets: cols.classes.map((c, i) => ({
        label: words(c), data: series(ts, x.name + "_" + c + "_bytes") || [], fill: true, stack: "used",
        borderColor: PALETTE[(i + 2) % PALETTE.length], backgroundColor: PALETTE[(i + 2) % PALETTE.length] + "aa"}))},
        options: timeOptions(x.name + ": occupancy by data class (capacity " + fmt.bytes(x.capacity_bytes) + ")",
                             "bytes", true)}, true);
    }
  }

  function checkpoints(r) {
    const with_ = (r.jobs || []).filter((j) => get(j, ["checkpoints", "count"], 0) > 0 &&
                                              get(j, ["checkpoints", "write_s", "histogram"]));
    if (!with_.length) return;
    const s = section("Checkpoint write times",
      "How long each checkpoint took to become whole on its storage, as a histogram per job (from the space being " +
      "granted to the last byte written).");
    const grid = el("div", {class: "grid2"});
    s.append(grid);
    for (const j of with_) {
      const h = j.checkpoints.write_s.histogram;
      // Narrow bins need more digits than 3 to tell their edges apart.
      const width = h.edges_s[h.edges_s.length - 1] - h.edges_s[0];
      const digits = width > 0 ? Math.min(8, Math.max(3, Math.ceil(Math.log10(h.edges_s[0] / (width / h.counts.length))) + 1))
                               : 3;
      const edge = (v) => digits > 3 ? Number(v.toPrecision(digits)) + " s" : fmt.seconds(v);
      // Edges that print alike (every write took the same time, to float noise) are one value, not a range.
      const labels = h.counts.map((_, i) => edge(h.edges_s[i]) === edge(h.edges_s[i + 1]) ? fmt.seconds(h.edges_s[i]) :
                                             edge(h.edges_s[i]) + " - " + edge(h.edges_s[i + 1]));
      const o = barOptions(j.name + ": " + fmt.count(j.checkpoints.count) + " writes to " + j.checkpoints.storage +
                           ", mean " + fmt.seconds(j.checkpoints.write_s.mean) + ", p99 " +
                           fmt.seconds(j.checkpoints.write_s.p99), "count", false);
      o.scales.x.title = {display: true, text: "write time"};
      o.scales.y.title = {display: true, text: "checkpoints"};
      chart(grid, {type: "bar", data: {labels: labels, datasets: [{label: "checkpoints", data: h.counts,
        backgroundColor: PALETTE[0]}]}, options: o}, true);
    }
  }

  function bottlenecks(r) {
    const b = r.bottlenecks || [];
    if (!b.length) return;
    const s = section("What limits each phase",
      "Each tier of a phase's path alone (node NICs, fabric, storage ports, controllers or PCIe uplinks, drives at " +
      "the workloads' request size and queue depth, metadata), the rate the phase reached, what held it and how far " +
      "the next limit is.");
    const label = (e) => (e.job ? e.job + " " : "") + words(e.phase) + (e.from ? " " + e.from : "") +
                         (e.direction === "read" ? " <- " : " -> ") + e.storage;
    table(s, ["job", "phase", "storage", "rate", "held by", "its bound", "next limit", "headroom", "GPU stall"],
      b.map((e) => [e.job || "-", words(e.phase) + (e.from ? " from " + e.from : ""),
        (e.direction === "read" ? "<- " : "-> ") + e.storage,
        fmt.rate(e.achieved_Bps), e.limiter_name,
        e.cause === "bandwidth" || e.cause === "shared" ? fmt.rate(e.limit_Bps) : "-",
        e.next ? e.next_name + " " + fmt.rate(e.next_Bps) : "-", e.next ? fmt.x(e.headroom) : "-",
        fmt.hours(e.stall_gpu_s / 3600)]), [3, 5, 7, 8]);
    const grid = el("div", {class: "grid2"});
    s.append(grid);
    for (const e of b) {
      const labels = ["reached"].concat(e.limits.map((t) => t.name));
      const values = [e.achieved_Bps].concat(e.limits.map((t) => t.Bps));
      const colors = values.map((_, i) => i === 0 ? PALETTE[1] : PALETTE[0] + (i === 1 ? "" : "88"));
      const o = barOptions(label(e), "rate", true);
      // Rates from kB/s to TB/s side by side: a log scale, labelled at the powers of ten.
      o.scales.x.type = "logarithmic";
      o.scales.x.ticks = {callback: (v) => Number.isInteger(Math.log10(v)) ? fmt.rate(v) : ""};
      // Every tier named: Chart.js would drop labels it finds crowded, and the tier it drops may be the limiter.
      o.scales.y.ticks = {autoSkip: false};
      o.plugins.legend = {display: false};
      o.plugins.tooltip.callbacks.afterLabel = (c) => c.dataIndex > 0 ? e.limits[c.dataIndex - 1].detail : "";
      chart(grid, {type: "bar", data: {labels: labels, datasets: [{label: "", data: values,
        backgroundColor: colors}]}, options: o}, true);
    }
  }

  function cost(r) {
    const c = r.cost;
    if (!c) return;
    const s = section("Cost over " + fmt.seconds(c.horizon_s),
      "Capital written off over " + fmt.seconds(c.service_life_s) + " (its share of the horizon), maintenance, energy, " +
      "facility, rent; the simulated period stands for the horizon" + (c.extrapolation === "repeat" ?
        ", repeated " + num(c.periods, 1) + " times (one-off staging and preprocessing counted once)." :
        " once, not repeated."));
    cards(s, [["total", fmt.usd(c.total_usd), "capex share + opex"],
              ["bought", fmt.usd(c.capex_usd), "written off " + fmt.usd(c.capex_amortized_usd)],
              ["to run, a year", fmt.usd(c.opex_per_year_usd), ""],
              ["per useful GPU-hour", fmt.usd(c.usd_per_useful_gpu_hour), ""],
              ["storage", fmt.usd(get(c, ["storage", "total_usd"])), "of the total"],
              ["stalled GPU-hours", fmt.usd(c.gpu_stalled_usd), "their value, not in the total"]]);
    const parts = [["capex share", "amortized_usd"], ["maintenance", "maintenance_usd"], ["energy", "energy_usd"],
                   ["facility", "facility_usd"], ["rent", "rent_usd"], ["space", "space_usd"],
                   ["retrieval", "retrieval_usd"]];
    const comps = c.by_component || [];
    const grid = el("div", {class: "grid2"});
    s.append(grid);
    chart(grid, {type: "bar", data: {labels: comps.map((x) => x.name + " (" + words(x.kind) + ")"),
      datasets: parts.map(([label, key], i) => ({label: label, data: comps.map((x) => x[key] || 0),
                                                 backgroundColor: PALETTE[i % PALETTE.length]}))},
      options: barOptions("cost by component", "usd", true, true)});
    const byClass = Object.entries(c.storage_by_data_class || {}).filter(([, v]) => v > 0);
    chart(grid, {type: "doughnut", data: {labels: byClass.map(([k]) => words(k)),
      datasets: [{data: byClass.map(([, v]) => v), backgroundColor: byClass.map((_, i) => PALETTE[i % PALETTE.length])}]},
      options: {plugins: {title: {display: true, text: "storage cost by data class"},
                          tooltip: {callbacks: {label: (c2) => c2.label + ": " + fmt.usd(c2.parsed)}}}}});
    table(s, ["component", "kind", "bought", "capex share", "maintenance", "energy", "facility", "rent", "total"],
      comps.map((x) => [x.name, words(x.kind), fmt.usd(x.purchase_usd), fmt.usd(x.amortized_usd),
        fmt.usd(x.maintenance_usd), fmt.usd(x.energy_usd), fmt.usd(x.facility_usd), fmt.usd(x.rent_usd),
        fmt.usd(x.total_usd)]), [2, 3, 4, 5, 6, 7, 8]);
  }

  function failures(r) {
    const f = r.failures;
    if (!f) return;
    const counts = Object.entries(f.by_component || {}).filter(([, v]) => v > 0);
    const lost = Object.entries(f.lost_gpu_hours || {}).filter(([, v]) => v > 0);
    const losses = f.data_loss_events || [];
    if (!counts.length && !lost.length && !losses.length) return;
    const s = section("Failures", "What failed during the simulated period and what it cost in GPU time and data.");
    const grid = el("div", {class: "grid2"});
    s.append(grid);
    if (counts.length)
      chart(grid, {type: "bar", data: {labels: counts.map(([k]) => words(k)), datasets: [{label: "failures",
        data: counts.map(([, v]) => v), backgroundColor: PALETTE[3]}]},
        options: barOptions("failures by component", "count", false)}, true);
    if (lost.length)
      chart(grid, {type: "bar", data: {labels: lost.map(([k]) => words(k)), datasets: [{label: "lost",
        data: lost.map(([, v]) => v), backgroundColor: PALETTE[1]}]},
        options: barOptions("GPU-hours lost, by cause (" + fmt.usd(get(f, ["lost_usd", "total"])) + ")", "hours",
                            false)}, true);
    if (losses.length)
      table(s, ["time", "storage", "cause", "share of the system", "lost"], losses.slice(0, 50).map((e) => [
        fmt.seconds(e.time_s), e.storage, words(e.cause), fmt.pct(e.fraction),
        Object.entries(e.by_class || {}).map(([k, v]) => words(k) + " " + fmt.bytes(v.bytes)).join(", ")]), [0, 3]);
  }

  function risk(r) {
    const dur = (r.storage || []).filter((x) => x.durability);
    const placement = r.placement || [];
    const threats = r.threats;
    if (!dur.length && !placement.length && !threats) return;
    const s = section("Risk and placement",
      "Chance of losing data over a year on each system (drive failures by the Markov model, fault domains, " +
      "threats), what a loss costs and the cheapest protection the scenario offers.");
    if (dur.length)
      table(s, ["system", "scheme", "groups", "MTTDL", "loss a year", "nines"], dur.map((x) => [x.name,
        x.durability.scheme, fmt.count(x.durability.groups), num(x.durability.mttdl_years, 0) + " years",
        fmt.pct(x.durability.annual_loss_probability), num(x.durability.durability_nines, 1)]), [2, 3, 4, 5]);
    if (threats && threats.events && threats.events.length)
      table(s, ["time", "threat", "hit", "lost", "recovered in"], threats.events.slice(0, 50).map((e) => [
        fmt.seconds(e.time_s), words(e.kind), fmt.bytes(e.hit_bytes), fmt.bytes(e.lost_bytes),
        e.recovery_s === null || e.recovery_s === undefined ? "-" : fmt.seconds(e.recovery_s)]), [0, 2, 3, 4]);
    if (placement.length) {
      s.append(el("h3", {}, "Placement advice"));
      table(s, ["data", "on", "chance a year", "value", "expected loss a year", "best protection", "its cost a year",
                "verdict", "break-even value"],
        placement.map((p) => [words(p.class), p.storage, fmt.pct(p.annual_loss_probability),
          p.value_usd === null || p.value_usd === undefined ? "?" : fmt.usd(p.value_usd),
          p.expected_loss_usd_per_year === null || p.expected_loss_usd_per_year === undefined ? "?" :
            fmt.usd(p.expected_loss_usd_per_year),
          p.protection || "-", p.protection_usd_per_year === undefined || p.protection_usd_per_year === null ? "-" :
            fmt.usd(p.protection_usd_per_year),
          {v: words(p.verdict), cls: p.verdict === "protect" ? "warn" : ""},
          p.breakeven_value_usd === undefined || p.breakeven_value_usd === null ? "-" : fmt.usd(p.breakeven_value_usd)]),
        [2, 3, 4, 6, 8]);
    }
  }

  function warnings(r) {
    if (!r.warnings || !r.warnings.length) return;
    const s = section("Warnings");
    s.append(el("ul", {class: "warnings"}, ...r.warnings.map((w) => el("li", {class: "warn"}, w))));
  }

  function scenario(r) {
    const s = section("The scenario as run", "Every default filled in; drive files merged.");
    s.append(el("details", {}, el("summary", {}, "show the resolved scenario (JSON)"),
                el("pre", {}, JSON.stringify(r.scenario, null, 2))));
  }

  function run(d) {
    const r = d.results, ts = d.timeseries;
    simulatedS = get(r, ["sim", "simulated_s"]);
    header(r);
    summary(r);
    gpuTime(r, ts);
    jobs(r);
    bottlenecks(r);
    storage(r, ts);
    checkpoints(r);
    cost(r);
    failures(r);
    risk(r);
    warnings(r);
    scenario(r);
  }

  // ---- several runs --------------------------------------------------------------------------------------------
  // The comparison is aisim's (app/report/compare.cpp, the same table `aisim compare` prints); the page draws it.
  const UNIT = {fraction: "pct", usd: "usd", s: "seconds"};
  function compare(d) {
    const runs = d.runs, c = d.comparison;
    const letter = (i) => String.fromCharCode(65 + Math.min(i, 25));
    root.append(el("h1", {}, "aisim comparison"));
    const list = el("ul", {});
    runs.forEach((x, i) => list.append(el("li", {}, letter(i) + ": " + x.label + " (" + (x.name || "?") + ")" +
                                                    (x.description ? ": " + x.description : ""))));
    root.append(list);
    if (c.inputs && c.inputs.length) {
      const si = section("Inputs that differ", "Where each run's resolved scenario differs from A's, by JSON pointer: " +
                         "what was changed, before what changed.");
      table(si, ["input"].concat(runs.map((_, i) => letter(i))), c.inputs.map((x) => [x.pointer].concat(
        x.values.map((v) => v === null ? "(none)" : typeof v === "string" ? v : JSON.stringify(v)))), []);
    }
    const s = section("Side by side", "Green marks the better value of each metric" +
                      (runs.length === 2 ? "; the delta is B - A." : "."));
    const rows = c.metrics.map((m) => {
      const f = fmt[UNIT[m.unit]];
      // A replica set's mean with its 95 % half-width.
      const pm = (i) => m.ci95 && m.ci95[i] && m.ci95[i][0] !== m.ci95[i][1] ?
        " \u00b1 " + f((m.ci95[i][1] - m.ci95[i][0]) / 2) : "";
      const row = [m.label].concat(m.values.map((v, i) => ({v: f(v) + pm(i), cls: m.best === i ? "win" : ""})));
      if (runs.length === 2) {
        const delta = m.values[1] - m.values[0];
        row.push(m.unit === "fraction" ? (delta >= 0 ? "+" : "") + num(100 * delta, 1) + " pt"
                                       : (delta >= 0 ? "+" : "-") + f(Math.abs(delta)));
      }
      row.push(!m.better ? "-" : m.indistinguishable ? "not distinguishable at 95 %" :
               m.best === null ? "same" : letter(m.best));
      return row;
    });
    const numeric = runs.map((_, i) => i + 1).concat(runs.length === 2 ? [runs.length + 1] : []);
    table(s, ["metric"].concat(runs.map((_, i) => letter(i))).concat(runs.length === 2 ? ["B - A"] : [])
      .concat(["better"]), rows, numeric);
    if (c.not_compared.length)
      s.append(el("p", {class: "note"}, "Not compared (missing from at least one run): " + c.not_compared.join(", ") +
                  "."));
    const grid = el("div", {class: "grid2"});
    s.append(grid);
    for (const m of c.metrics) {
      const f = fmt[UNIT[m.unit]];
      chart(grid, {type: "bar", data: {labels: runs.map((_, i) => letter(i)), datasets: [{label: m.label,
        data: m.values, backgroundColor: runs.map((_, i) => m.best === i ? STALL_COLORS.compute : PALETTE[0])}]},
        options: {plugins: {title: {display: true, text: m.label + (!m.better ? " (not ranked)" :
                                                         " (" + (m.better === "max" ? "higher" : "lower") + " is better)")},
                            legend: {display: false}, tooltip: {callbacks: {label: (ctx) => f(ctx.parsed.y)}}},
                  scales: {y: {beginAtZero: true, ticks: {callback: (v) => f(v)}}}}}, true);
    }
  }

  // ---- a sweep ------------------------------------------------------------------------------------------------
  // sweep.json as `aisim sweep` wrote it (its points thinned past 20,000, the page says so); the front is aisim's.
  // Points of a sweep differ in the second decimal of a percent: shown finer than a run's page shows them.
  function pctFine(v) {
    if (v === null || v === undefined) return "-";
    const a = 100 * v;
    return (Math.abs(a) < 1 && a !== 0 ? String(Number(a.toPrecision(2))) : num(a, 2)) + " %";
  }
  function metricFmt(column) {
    if (column.endsWith("_fraction")) return pctFine;
    if (column.includes("usd")) return fmt.usd;
    if (column.endsWith("_bytes")) return fmt.bytes;
    if (column.endsWith("_s")) return fmt.seconds;
    return fmt.count;
  }
  function sweep(d) {
    const w = d.sweep, axes = get(w, ["run", "plan", "axes"], []), points = w.points;
    const metrics = w.metrics.filter((m) => points.some((p) => p.metrics[m.column] !== undefined));
    const label = (m) => (metrics.find((x) => x.column === m) || {label: words(m)}).label;
    // An axis's value for people and for a chart: its number where the axis has one unit, else its text.
    const axisValue = (a, v) => {
      if (a.unit !== undefined) return typeof v === "number" ? v : parseFloat(v);
      if (v !== null && typeof v === "object") return v.name || JSON.stringify(v).slice(0, 40);
      return String(v);
    };
    const axisName = (a) => a.pointer + (a.unit ? " [" + a.unit + "]" : "");
    const axisShort = (a) => a.pointer.slice(a.pointer.lastIndexOf("/") + 1);
    const where = (p) => axes.map((a) => axisName(a) + " = " + axisValue(a, p.values[a.pointer])).join(", ");
    root.append(el("h1", {}, "aisim sweep: " + get(w, ["run", "scenario"], "")));
    root.append(el("div", {class: "meta"}, w.description + (w.state !== "finished" ? " (" + w.state + ")" : "")));
    const ok = points.filter((p) => p.status === "ok");
    const failed = points.filter((p) => p.status === "failed");
    // The money objective of the front: what it paid plus the GPU time it wasted (older sweeps: what it paid).
    const MONEY = w.pareto_objectives.includes("total_with_lost_gpu_usd") ? "total_with_lost_gpu_usd" : "total_usd";
    const front = ok.filter((p) => p.pareto).sort((a, b) => a.metrics[MONEY] - b.metrics[MONEY]);
    const s0 = section("Summary", d.thinned ? "The sweep has " + num(d.total, 0) + " points; this page carries the " +
                       "Pareto front and " + num(points.length, 0) + " of them, evenly spread (sweep.csv has all)." :
                       null);
    cards(s0, [["points finished", num(ok.length, 0), "of " + num(d.total, 0)],
               ["points failed", num(failed.length, 0), failed.length ? "listed below" : ""],
               ["on the Pareto front", num(front.length, 0), w.pareto_objectives.map(label).join(" / ")]]);

    const sens = w.sensitivity;
    if (sens) {
      // A tornado: each input's bar spans the metric at its low and at its high value, from the nominal run's.
      const m = sens.metric, f = metricFmt(m), ranked = sens.inputs.filter((r) => r.at_low !== null && r.at_high !== null);
      const top = ranked.slice(0, 15);
      const st = section("Sensitivity of " + label(m), "Each input run at its low and its high value, every other " +
                         "input at its nominal one; largest swing first. Inputs without their own range in the " +
                         "scenario's `uncertainty` are taken at the given ±range. Nominal: " + f(sens.nominal) + ".");
      const name = (r) => r.pointer + " (" + r.low + " – " + r.high + ")";
      // The axis spans the values, not zero to them: a swing of 0.06 % on 99.86 % must show.
      const vals = top.flatMap((r) => [r.at_low, r.at_high]).concat([sens.nominal]).filter((v) => v !== null);
      const lo = Math.min(...vals), hi = Math.max(...vals);
      const pad = hi > lo ? (hi - lo) * 0.1 : Math.abs(hi) * 0.01 || 1;
      chart(st, {type: "bar", data: {labels: top.map(name), datasets: [
        {label: "input at its low", data: top.map((r) => [sens.nominal, r.at_low]), backgroundColor: PALETTE[0],
         grouped: false},
        {label: "input at its high", data: top.map((r) => [sens.nominal, r.at_high]), backgroundColor: PALETTE[1],
         grouped: false}]},
        options: {indexAxis: "y", plugins: {title: {display: true, text: label(m) + ": what moves it most"},
          tooltip: {callbacks: {label: (c) => c.dataset.label + ": " + f(c.raw[1])}}},
          scales: {x: {beginAtZero: false, min: lo - pad, max: hi + pad, title: {display: true, text: label(m)},
                       ticks: {callback: (v) => f(v)}},
                   y: {ticks: {font: {size: 10}}}}}});
      table(st, ["input", "kind", "low", "high", "at low", "at high", "swing"],
        sens.inputs.map((r) => [r.pointer, r.kind === "given" ? "given" :
                                r.kind + (r.source === "scenario" ? " (given)" : " (" + r.source + ")"),
                                r.low, r.high, f(r.at_low), f(r.at_high),
                                r.at_low === null || r.at_high === null ? "-" : f(r.swing)]), [4, 5, 6]);
    }

    const s1 = section("Pareto front", "Each point is one run. The front (green, joined) holds the points no other " +
                       "point beats on every objective at once: " + w.pareto_objectives.map(label).join(", ") +
                       ". Hover a point for its values.");
    const pt = (p, y) => ({x: p.metrics[MONEY], y: p.metrics[y], point: p});
    const tip = (y) => ({callbacks: {label: (c) => "point " + c.raw.point.point + " (" + where(c.raw.point) + "): " +
                                     metricFmt(y)(c.parsed.y) + ", " + fmt.usd(c.parsed.x)}});
    for (const y of w.pareto_objectives.filter((o) => o !== MONEY)) {
      chart(s1, {type: "scatter", data: {datasets: [
        {label: "Pareto front", data: front.filter((p) => p.metrics[y] !== undefined).map((p) => pt(p, y)),
         showLine: true, borderColor: STALL_COLORS.compute, backgroundColor: STALL_COLORS.compute, pointRadius: 4},
        {label: "other points", data: ok.filter((p) => !p.pareto && p.metrics[y] !== undefined).map((p) => pt(p, y)),
         backgroundColor: PALETTE[0] + "99", pointRadius: 3}]},
        options: {parsing: {xAxisKey: "x", yAxisKey: "y"}, plugins: {title: {display: true, text: label(y) +
          " against " + label(MONEY)}, tooltip: tip(y)},
          scales: {x: {title: {display: true, text: label(MONEY)}, ticks: {callback: (v) => fmt.usd(v)}},
                   y: {title: {display: true, text: label(y)}, ticks: {callback: (v) => metricFmt(y)(v)}}}}});
    }
    const shown = ["gpu_utilization_fraction", "total_usd", "checkpoint_write_p99_s", "expected_loss_usd_per_year",
                   "serving_p99_s"].filter((m) => metrics.some((x) => x.column === m));
    const row = (p) => [String(p.point)].concat(axes.map((a) => String(axisValue(a, p.values[a.pointer]))))
      .concat(shown.map((m) => metricFmt(m)(p.metrics[m])));
    const numeric = shown.map((_, i) => 1 + axes.length + i);
    table(s1, ["point"].concat(axes.map(axisName)).concat(shown.map(label)), front.map(row), numeric);

    if (!sens) {
    const s2 = section("Metrics against each parameter", "One chart per varied value and metric; where other values " +
                       "vary too, one line per combination of them (up to 8; else every point on its own).");
    const plotted = ["gpu_utilization_fraction", "total_usd", "checkpoint_write_p99_s", "stall_data_fraction",
                     "stall_checkpoint_fraction", "expected_loss_usd_per_year", "serving_p99_s"]
      .filter((m) => metrics.some((x) => x.column === m));
    const grid = el("div", {class: "grid2"});
    s2.append(grid);
    axes.forEach((a, k) => {
      const others = axes.filter((_, j) => j !== k);
      const key = (p) => others.map((o) => axisShort(o) + " " + axisValue(o, p.values[o.pointer]) +
                                            (o.unit ? " " + o.unit : "")).join(", ");
      const groups = new Map();
      for (const p of ok) {
        const g = key(p);
        if (!groups.has(g)) groups.set(g, []);
        groups.get(g).push(p);
      }
      const together = groups.size <= 8;
      const numericAxis = a.unit !== undefined;
      const xs = numericAxis ? null : [...new Set(ok.map((p) => axisValue(a, p.values[a.pointer])))];
      const values = ok.map((p) => axisValue(a, p.values[a.pointer])).filter((v) => typeof v === "number");
      const logX = numericAxis && values.length && Math.min(...values) > 0 && Math.max(...values) / Math.min(...values) >= 20;
      for (const m of plotted) {
        const sets = (together ? [...groups.entries()] : [["every point", ok]]).map(([g, ps], i) => ({
          label: g || "points", borderColor: PALETTE[i % PALETTE.length], backgroundColor: PALETTE[i % PALETTE.length],
          showLine: together, pointRadius: together ? 2.5 : 2,
          data: ps.filter((p) => p.metrics[m] !== undefined)
            .map((p) => ({x: numericAxis ? axisValue(a, p.values[a.pointer]) : xs.indexOf(axisValue(a, p.values[a.pointer])),
                          y: p.metrics[m], point: p}))
            .sort((u, v) => u.x - v.x)}));
        // The knee aisim found (sweep.json's knees): where more of the one parameter stops helping this metric.
        const kn = axes.length === 1 ? (w.knees || {})[m] : undefined;
        const kp = kn ? points.find((p) => p.point === kn.point) : undefined;
        if (kp && kp.metrics[m] !== undefined) {
          const kx = axisValue(a, kp.values[a.pointer]);
          sets.push({label: "knee: " + kx + (a.unit ? " " + a.unit : ""), pointStyle: "triangle", pointRadius: 8,
                     borderColor: "#b00020", backgroundColor: "#b00020", showLine: false,
                     data: [{x: numericAxis ? kx : xs.indexOf(kx), y: kp.metrics[m], point: kp}]});
        }
        chart(grid, {type: "scatter", data: {datasets: sets},
          options: {parsing: {xAxisKey: "x", yAxisKey: "y"},
            plugins: {title: {display: true, text: label(m) + " against " + axisName(a)},
                      legend: {display: (together && groups.size > 1) || sets.length > 1, position: "right",
                               labels: {boxWidth: 10, font: {size: 10}}},
                      tooltip: {callbacks: {label: (c) => "point " + c.raw.point.point + " (" + where(c.raw.point) + "): " +
                                                          metricFmt(m)(c.parsed.y)}}},
            scales: {x: {type: logX ? "logarithmic" : "linear", title: {display: true, text: axisName(a)},
                         ticks: numericAxis ? {} : {stepSize: 1, callback: (v) => xs[v] === undefined ? "" : xs[v]},
                         min: numericAxis ? undefined : -0.5, max: numericAxis ? undefined : xs.length - 0.5},
                     y: {title: {display: true, text: label(m)}, ticks: {callback: (v) => metricFmt(m)(v)}}}}});
      }
    });
    }

    const s3 = section("All points", (points.length > 500 ? "The first 500 of the points on this page; sweep.csv has " +
                       "every one. " : "") + "* marks the Pareto front. Point N's own results are in " +
                       "points/point-00000N/ (`aisim report` on that folder draws its page).");
    table(s3, ["point", "status"].concat(axes.map(axisName)).concat(shown.map(label)),
      points.slice(0, 500).map((p) => [String(p.point) + (p.pareto ? " *" : ""),
        {v: p.status, cls: p.status === "ok" ? "" : "warn"}].concat(axes.map((a) => String(axisValue(a, p.values[a.pointer]))))
        .concat(shown.map((m) => metricFmt(m)(p.metrics[m])))),
      shown.map((_, i) => 2 + axes.length + i));
    if (failed.length) {
      const s4 = section("Failed points", "Each one's outcome and the error its run printed (its run.log has all).");
      table(s4, ["point"].concat(axes.map(axisName)).concat(["outcome", "error"]),
        failed.map((p) => [String(p.point)].concat(axes.map((a) => String(axisValue(a, p.values[a.pointer]))))
          .concat([p.outcome, p.error || ""])));
    }
  }

  // ---- a replica set ------------------------------------------------------------------------------------------
  function replicas(d) {
    const a = d.results, rep = a.replicas || {}, runs = rep.runs || [];
    root.append(el("h1", {}, "aisim replicas: " + get(a, ["scenario", "name"], "run")));
    if (get(a, ["scenario", "description"])) root.append(el("p", {class: "note"}, a.scenario.description));
    root.append(el("div", {class: "meta"}, fmt.count(rep.requested) + " replicas (seeds " +
      (runs.length ? runs[0].seed + "-" + runs[runs.length - 1].seed : "?") + "), " + fmt.count(rep.finished) +
      " finished" + (rep.interrupted ? ", interrupted" : "") + "; each replica's own report is in its folder"));
    const s = section("Metrics over the replicas", "Mean with its 95 % confidence half-width (Student's t over the " +
                      "replicas that finished), and the range the replicas spanned. Metrics zero in every replica " +
                      "are left out (results.json keeps them).");
    table(s, ["metric", "mean \u00b1 95 % half-width", "min \u2026 max"],
          d.rows.map((r) => [r.label, r.mean_text, r.range_text]), [1, 2]);
    const unit = (p) => p.startsWith("/gpu/") || p.endsWith("/utilization") ? "pct" : p.includes("usd") ? "usd" :
                        p.endsWith("_s") ? "seconds" : "count";
    const grid = el("div", {class: "grid2"});
    s.append(grid);
    for (const r of d.rows) {
      const f = fmt[unit(r.pointer)];
      const bars = [[r.min, r.max]].concat(r.ci95_low === null ? [] : [[r.ci95_low, r.ci95_high]]);
      chart(grid, {type: "bar", data: {labels: ["min \u2026 max", "95 % interval"].slice(0, bars.length),
        datasets: [{label: r.label, data: bars, backgroundColor: [PALETTE[0] + "66", STALL_COLORS.compute]}]},
        options: {indexAxis: "y", plugins: {title: {display: true, text: r.label + ": mean " + r.mean_text},
                  legend: {display: false}, tooltip: {callbacks: {label: (c) => f(c.raw[0]) + " \u2026 " + f(c.raw[1])}}},
                  scales: {x: {ticks: {callback: (v) => f(v)}}}}}, true);
    }
  }

  try {
    if (data.mode === "compare") compare(data);
    else if (data.mode === "replicas") replicas(data);
    else if (data.mode === "sweep") sweep(data);
    else run(data);
    document.body.setAttribute("data-charts", String(charts.length));
  } catch (e) {
    root.append(el("p", {class: "warn"}, "This page could not be drawn: " + e));
    throw e;
  }
})();

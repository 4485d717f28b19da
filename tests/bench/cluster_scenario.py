#!/usr/bin/env python3
"""Writes the multi-tenant cluster benchmark (scenarios/bench/cluster-100k-365d.json is its output for 100,000 GPUs
and 365 days) for any size and period, so make bench can show how the wall time grows with GPUs x days.

The cluster: three node groups of 8-GPU nodes (pre-training 64%, fine-tuning and preprocessing 16%, inference 20% of
the GPUs); a hot JBOF tier, a warm RAID 6 array and a cold object store, sized with the GPUs. The year: two
pre-training jobs in back-to-back runs (90 and 30 days), fine-tuning jobs of 2 days in two lanes, a 1-day
preprocessing job every week, and two inference fleets that scale up at 08:00 and down at 20:00 every day. Datasets
are staged from the object store before each job, checkpoints archived to it, every 8th evaluated and the validated
ones replicated to it. Nodes fail at the Llama 3 rate; drives, enclosures and controllers at their rates.

Usage: cluster_scenario.py GPUS DAYS [DRIVES_DIR] > scenario.json
  DRIVES_DIR: where the drive model files are, as the scenario names them (default ../drives, for scenarios/bench/)
"""
import json
import sys


def nodes_of(gpus):
    """Whole leaves of 16 nodes of 8 GPUs, at least one."""
    return max(16, int(round(gpus / 8 / 16)) * 16)


def runs(name, first, length_d, days, spec):
    """Back-to-back runs of a job over the period: run k starts at k x length and lasts length (the last one is
    cut at the period's end)."""
    out = []
    k = 0
    while k * length_d < days:
        job = dict(spec)
        job["name"] = f"{name}-{k + first}"
        job["start"] = f"{k * length_d}d"
        job["duration"] = f"{min(length_d, days - k * length_d)}d"
        out.append(job)
        k += 1
    return out


def scenario(gpus, days, drives="../drives"):
    train, tune, serve = nodes_of(gpus * 0.64), nodes_of(gpus * 0.16), nodes_of(gpus * 0.20)
    total = (train + tune + serve) * 8
    scale = total / 100000
    enclosures = max(8, int(round(64 * scale / 8)) * 8)
    controllers = max(4, int(round(32 * scale / 4)) * 4)
    gateways = max(4, int(round(32 * scale / 4)) * 4)
    group = {"gpus_per_node": 8, "gpu": "H100-SXM", "nics": 2, "nic_speed": "400Gbps", "node_mtbf": "6335h"}
    workloads = []
    # Pre-training: three quarters of the training group in 90-day runs, the rest in 30-day runs.
    big = (train * 3 // 4) * 8
    workloads += runs("pretrain-405b", 1, 90, days, {
        "kind": "training", "node_group": "train", "gpus": big, "step_time": "20s", "global_batch": 2048,
        "sample_size": "32KiB", "restart_time": "10min", "dataset": {"size": "60TB"},
        "checkpoint": {"parameters": 405e9, "interval": "30min"}})
    workloads += runs("pretrain-70b", 1, 30, days, {
        "kind": "training", "node_group": "train", "gpus": train * 8 - big, "step_time": "17s",
        "global_batch": 1024, "sample_size": "32KiB", "restart_time": "10min", "dataset": {"size": "20TB"},
        "checkpoint": {"parameters": 70e9, "interval": "1h"}})
    # Fine-tuning: two lanes of 2-day jobs on a quarter of the group each.
    lane = max(8, (tune // 4) * 8)
    for name in ("ft-a", "ft-b"):
        workloads += runs(name, 1, 2, days, {
            "kind": "fine_tuning", "node_group": "tune", "gpus": lane, "step_time": "2s", "global_batch": 256,
            "sample_size": "16KiB", "base_model": {"parameters": 70e9}, "dataset": {"size": "200GB", "io_size": "64KiB"},
            "checkpoint": {"size": "140GB", "interval": "2h"}})
    # Preprocessing: a day every week on the other half of the group, from the object store to the warm array.
    pre = (tune * 8) - 2 * lane
    for week in range((days + 6) // 7):
        workloads.append({
            "name": f"tokenize-{week + 1}", "kind": "preprocessing", "node_group": "tune", "gpus": pre,
            "start": f"{week * 7}d", "duration": "1d", "step_time": "1s", "global_batch": 2048,
            "sample_size": "64MiB", "epochs": 1, "dataset": {"size": "200TB", "storage": "cold", "io_size": "64MiB"},
            "output": {"storage": "warm", "ratio": 0.3}})
    # Inference: two fleets, each half the group, at a quarter of their replicas at night and all of them by day.
    fleet = (serve // 2) * 8
    replicas = fleet // 8
    for name, params in (("chat-70b", 70e9), ("code-34b", 34e9)):
        scale_events = []
        for d in range(days):
            scale_events.append({"at": f"{d * 24}h" if d else "0s", "replicas": max(1, replicas // 4)})
            scale_events.append({"at": f"{d * 24 + 8}h", "replicas": replicas})
            scale_events.append({"at": f"{d * 24 + 20}h", "replicas": max(1, replicas // 4)})
        workloads.append({
            "name": name, "kind": "inference", "node_group": "serve", "gpus": fleet, "gpus_per_replica": 8,
            "model": {"parameters": params, "storage": "warm"}, "scale": scale_events,
            "requests": {"rate": "200k op/s", "reads_per_request": 8, "read_size": "16KiB", "storage": "hot",
                         "slo": "5ms"}})
    return {
        "schema_version": 1,
        "name": f"cluster-{round(total / 1000)}k-{days}d",
        "description": (
            f"Benchmark (tests/bench/cluster_scenario.py {gpus} {days}): {total:,} H100 GPUs in three node groups "
            f"for {days} days of a multi-tenant job mix: pre-training in back-to-back 90- and 30-day runs, 2-day "
            "fine-tuning jobs in two lanes, a weekly 1-day preprocessing job, two inference fleets that scale up at "
            "08:00 and down at 20:00 every day; datasets staged from the object store, checkpoints archived to it, "
            "validated models kept on the RAID 6 array and replicated; nodes fail at the Llama 3 rate (node_mtbf "
            "6,335 h, validation/reference-data/reliability.json), drives at their datasheet AFR, enclosures and "
            "controllers at estimated MTBFs (as scenarios/failures.json)."),
        "cluster": {"node_groups": [dict(group, name="train", count=train), dict(group, name="tune", count=tune),
                                    dict(group, name="serve", count=serve)]},
        "network": {"topology": "spine_leaf", "nodes_per_leaf": 16, "enclosures_per_leaf": 8, "spines": 8,
                    "oversubscription": 2},
        "drives": {"gen4-tlc": {"file": f"{drives}/micron-9400-pro-7.68tb.json"},
                   "qlc": {"file": f"{drives}/solidigm-d5-p5336-61.44tb.json"}},
        "storage": {
            "hot": {"kind": "jbof", "enclosures": enclosures, "drives_per_enclosure": 24, "drive": "gen4-tlc",
                    "ports_per_enclosure": 4, "port_speed": "400Gbps",
                    "failures": {"drives": {"repair_time": "24h"},
                                 "enclosures": {"mtbf": "100000h", "repair_time": "4h"}}},
            "warm": {"kind": "array", "controllers": controllers, "controller_bandwidth": "50GB/s",
                     "ports_per_controller": 4, "port_speed": "400Gbps", "shelves": controllers,
                     "drives_per_shelf": 24, "drive": "qlc", "protection": {"scheme": "raid6", "data": 10},
                     "failures": {"drives": {"repair_time": "24h"},
                                  "controllers": {"mtbf": "200000h", "repair_time": "4h"}}},
            "cold": {"kind": "object", "gateways": gateways, "gateway_bandwidth": "12.5GB/s",
                     "capacity": f"{max(10, round(2000 * scale))}PB", "connections_per_node": 16,
                     "connection_bandwidth": "500MB/s", "request_latency": "20ms", "object_size": "64MiB",
                     "storage_price": "$8/TB-month", "retrieval_price": "$0.01/GB"}},
        "workloads": workloads,
        "policies": {
            "checkpoint_keep_last": 3, "on_full": "block_writes",
            "placement": {"training_dataset": "hot", "active_checkpoint": "hot", "validated_model": "warm",
                          "production_model": "warm"},
            "promotion": {"evaluate_every": 8, "evaluation_time": "1h", "pass_rate": 0.5, "production_every": 2},
            "tiering": {"dataset_home": "cold", "stage_dataset_before": "6h", "archive_checkpoints_to": "cold",
                        "replicate_validated_to": "cold"}},
        "simulation": {"duration": f"{days}d", "seed": 1, "fidelity": "aggregate"},
    }


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: cluster_scenario.py GPUS DAYS [DRIVES_DIR] > scenario.json")
    json.dump(scenario(int(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:]), sys.stdout, indent=2)
    sys.stdout.write("\n")

#!/usr/bin/env python3
"""Fills a migrated, empty Prelude database with the demo app and raw events of its camera-prime-copy experiment, plus
the aggregates ExperimentAggregator would have written for them, computed with SQL from those raw events (not through
HTTP ingestion, which would take hours here). Shared by scripts/bench-results.sh and scripts/bench-results-page.sh.

Install i is in variant control (even i) or short-copy (odd i) and sends EVENTS_PER_INSTALL events: primeShown, then
primeAccepted or primeDismissed, systemGranted or systemDenied (about 40 % / 45 % granted), then settingsOpened or
settingsShown. With --days D, install i's events arrive on day i % D from 2025-11-26 and the daily aggregates
(experiment_daily_counts, experiment_daily_events) are written too; without it, they arrive at 1,700,000,000,000 + i ms.

Usage: results_database.py DATABASE INSTALLS EVENTS_PER_INSTALL POLICY [--days D]
"""
import argparse
import hashlib
import sqlite3
import sys
import time

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("database")
parser.add_argument("installs", type=int)
parser.add_argument("events_per_install", type=int)
parser.add_argument("policy")
parser.add_argument("--days", type=int, help="spread arrivals over this many days and write the daily aggregates")
args = parser.parse_args()

c = sqlite3.connect(args.database, isolation_level=None)
c.execute("PRAGMA journal_mode=WAL")
c.execute("PRAGMA synchronous=OFF")  # populating only; the server runs with FULL
document = open(args.policy, encoding="utf-8").read()
etag = '"' + hashlib.sha256(document.encode()).hexdigest() + '"'
started = time.time()
c.execute("BEGIN")
# Migration 0011: the live revision is the production environment's.
c.execute("INSERT INTO apps (id, name, created_at, updated_at) VALUES ('demo', 'Demo', 0, 0)")
c.execute("INSERT INTO policy_revisions (app_id, number, document, etag, created_at, author) VALUES ('demo', 1, ?, ?, 0, 'bench')",
          (document, etag))
c.execute("INSERT INTO environments (app_id, name, live_revision, created_at, updated_at) VALUES ('demo', 'production', 1, 0, 0)")
if args.days:
    arrival, parameters = "1764115200000 + (i % ?) * 86400000", (args.days, args.days)
else:
    arrival, parameters = "1700000000000 + i", ()
c.execute(f"""
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1),
     k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < ? - 1)
INSERT INTO events (app_id, install_id, client_event_id, type, feature, experiment, variant, occurred_at, received_at)
SELECT 'demo', 'install-' || i, 'e' || j,
       CASE j WHEN 0 THEN 'primeShown'
              WHEN 1 THEN CASE WHEN (i * 7919) % 100 < 70 THEN 'primeAccepted' ELSE 'primeDismissed' END
              WHEN 2 THEN CASE WHEN (i * 7919) % 100 < CASE i % 2 WHEN 0 THEN 40 ELSE 45 END
                               THEN 'systemGranted' ELSE 'systemDenied' END
              ELSE CASE WHEN (i * 104729) % 100 < 20 THEN 'settingsOpened' ELSE 'settingsShown' END END,
       'camera', 'camera-prime-copy', CASE i % 2 WHEN 0 THEN 'control' ELSE 'short-copy' END,
       {arrival}, {arrival}
FROM n, k
""", (args.installs, args.events_per_install) + parameters)
print(f"events: {c.execute('SELECT count(*) FROM events').fetchone()[0]} in {time.time() - started:.0f} s", file=sys.stderr)
started = time.time()
# FunnelSteps bits: 1 exposed, 2 primeShown, 4 primeContinued, 8 primeDismissed, 16 systemGranted, 32 systemDenied,
# 64 settingsOpened, 128 returnedGranted. SUM(DISTINCT bit) over an install's events is their OR.
c.execute("""
INSERT INTO experiment_install_steps (app_id, environment, experiment_key, feature, variant, install_id, steps,
    first_seen_at)
SELECT app_id, 'production', experiment, feature, variant, install_id,
       1 + sum(DISTINCT CASE type WHEN 'primeShown' THEN 2 WHEN 'primeAccepted' THEN 4 WHEN 'primeDismissed' THEN 8
                                  WHEN 'systemGranted' THEN 16 WHEN 'systemDenied' THEN 32 WHEN 'settingsOpened' THEN 64
                                  WHEN 'returnedGranted' THEN 128 ELSE 0 END),
       min(received_at)
FROM events WHERE experiment IS NOT NULL AND variant IS NOT NULL
GROUP BY app_id, experiment, feature, variant, install_id
""")
c.execute("""
INSERT INTO experiment_funnel_counts (app_id, environment, experiment_key, feature, variant, exposed, prime_shown,
    prime_continued, prime_dismissed, system_granted, system_denied, settings_opened, returned_granted, granted,
    first_event_at, last_event_at)
SELECT app_id, 'production', experiment_key, feature, variant, count(*),
       sum(steps >> 1 & 1), sum(steps >> 2 & 1), sum(steps >> 3 & 1), sum(steps >> 4 & 1), sum(steps >> 5 & 1),
       sum(steps >> 6 & 1), sum(steps >> 7 & 1), sum((steps & 144) != 0), min(first_seen_at), max(first_seen_at)
FROM experiment_install_steps GROUP BY app_id, experiment_key, feature, variant
""")
if args.days:
    # Every install's events arrive on one day, so its increments all count on that day.
    c.execute("""
    INSERT INTO experiment_daily_counts (app_id, environment, experiment_key, feature, variant, day, exposed,
        prime_shown, prime_continued, prime_dismissed, system_granted, system_denied, settings_opened, returned_granted,
        granted)
    SELECT app_id, 'production', experiment_key, feature, variant, first_seen_at / 86400000, count(*),
           sum(steps >> 1 & 1), sum(steps >> 2 & 1), sum(steps >> 3 & 1), sum(steps >> 4 & 1), sum(steps >> 5 & 1),
           sum(steps >> 6 & 1), sum(steps >> 7 & 1), sum((steps & 144) != 0)
    FROM experiment_install_steps GROUP BY 1, 2, 3, 4, 5, 6
    """)
    c.execute("""
    INSERT INTO experiment_daily_events (app_id, environment, experiment_key, feature, variant, day, events)
    SELECT app_id, 'production', experiment, feature, variant, received_at / 86400000, count(*) FROM events
    GROUP BY 1, 2, 3, 4, 5, 6
    """)
c.execute("COMMIT")
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print(f"aggregates: {c.execute('SELECT count(*) FROM experiment_install_steps').fetchone()[0]} installs, "
      f"{c.execute('SELECT count(*) FROM experiment_daily_counts').fetchone()[0]} daily rows in "
      f"{time.time() - started:.0f} s", file=sys.stderr)

#!/usr/bin/env python3
"""Checks deploy/kubernetes/postgres-cnpg/ offline, where kubernetes-validate cannot: its CloudNativePG `Cluster` is a
custom resource whose schema that package does not ship.

1. cluster.yaml against cnpg-cluster.schema.json (beside this file: the fields it uses, from CloudNativePG's API
   reference, closed objects) and the cross-field rule of CloudNativePG's admission webhook this manifest can break
   (the synchronous standbys fewer than the instances);
2. what docs/kubernetes.md says of it: at least three instances, synchronous replication with `dataDurability:
   required` and `failoverQuorum: true`;
3. the wiring: the Deployment's PRELUDE_DATABASE is built from DATABASE_URL, which reads key `uri` of the Secret
   `<cluster>-app` the operator generates;
4. with --same-as OTHER: the Deployment is OTHER's but for that Secret, and the Service and the PodDisruptionBudget are
   OTHER's (the two PostgreSQL examples must not drift apart).

Usage: check-cnpg.py DIRECTORY [--same-as OTHER] (scripts/check-kubernetes.sh runs it with the CI venv's python:
PyYAML, and jsonschema, which comes with openapi-spec-validator and kubernetes-validate).
Exit 0 when everything holds; 1 with one line per problem otherwise.
"""

import json
import pathlib
import sys

import jsonschema
import yaml

SCHEMA = pathlib.Path(__file__).with_name("cnpg-cluster.schema.json")


def without_database(deployment: dict) -> dict:
    """`deployment` with the Secret DATABASE_URL reads left out."""
    for container in deployment["spec"]["template"]["spec"]["containers"]:
        for variable in container.get("env", []):
            if variable["name"] == "DATABASE_URL":
                variable.pop("valueFrom", None)
    return deployment


def drift(directory: pathlib.Path, other: pathlib.Path) -> list[str]:
    found = []
    for name in ("deployment.yaml", "service.yaml", "pdb.yaml"):
        mine, theirs = (yaml.safe_load((folder / name).read_text()) for folder in (directory, other))
        if name == "deployment.yaml":
            mine, theirs = without_database(mine), without_database(theirs)
        if mine != theirs:
            found.append(f"{name} differs from {other / name} (beyond the database Secret)")
    return found


def problems(directory: pathlib.Path) -> list[str]:
    found: list[str] = []
    cluster = yaml.safe_load((directory / "cluster.yaml").read_text())
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    for error in sorted(validator.iter_errors(cluster), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(part) for part in error.absolute_path) or "(document)"
        found.append(f"cluster.yaml {where}: {error.message}")
    if found:
        return found  # the checks below read fields the schema just found missing or mistyped

    spec = cluster["spec"]
    instances = spec["instances"]
    synchronous = spec.get("postgresql", {}).get("synchronous")
    # CloudNativePG's webhook: the number of synchronous standbys must be less than the number of instances.
    if synchronous and synchronous["number"] >= instances:
        found.append(
            f"cluster.yaml spec.postgresql.synchronous.number: {synchronous['number']} must be less than"
            f" spec.instances ({instances})")
    if instances < 3:
        found.append(
            f"cluster.yaml spec.instances: {instances}, docs/kubernetes.md promises 3 (a primary, two standbys)")
    if not synchronous or synchronous.get("dataDurability") != "required" or not synchronous.get("failoverQuorum"):
        found.append(
            "cluster.yaml spec.postgresql.synchronous: docs/kubernetes.md promises synchronous replication with"
            " dataDurability: required and failoverQuorum: true (no acknowledged write lost in a failover)")

    secret = f"{cluster['metadata']['name']}-app"
    deployment = yaml.safe_load((directory / "deployment.yaml").read_text())
    env = {
        variable["name"]: variable
        for container in deployment["spec"]["template"]["spec"]["containers"]
        for variable in container.get("env", [])
    }
    reference = env.get("DATABASE_URL", {}).get("valueFrom", {}).get("secretKeyRef")
    if reference != {"name": secret, "key": "uri"}:
        found.append(
            f"deployment.yaml DATABASE_URL: {reference}, expected a secretKeyRef to the operator's Secret"
            f" {secret!r}, key 'uri'")
    if not str(env.get("PRELUDE_DATABASE", {}).get("value", "")).startswith("$(DATABASE_URL)"):
        found.append("deployment.yaml PRELUDE_DATABASE: not built from $(DATABASE_URL)")
    return found


def main() -> int:
    arguments = sys.argv[1:]
    if len(arguments) not in (1, 3) or (len(arguments) == 3 and arguments[1] != "--same-as"):
        print("usage: check-cnpg.py DIRECTORY [--same-as OTHER]", file=sys.stderr)
        return 2
    found = problems(pathlib.Path(arguments[0]))
    if len(arguments) == 3:
        found += drift(pathlib.Path(arguments[0]), pathlib.Path(arguments[2]))
    for problem in found:
        print(f"check-cnpg: {problem}", file=sys.stderr)
    if not found:
        print(f"check-cnpg: {sys.argv[1]}: the Cluster matches CloudNativePG's API and the Deployment reads its Secret")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

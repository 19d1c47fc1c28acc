#!/usr/bin/env bash
# Kept for muscle memory and old docs: the core-purity check is now part of the layering check.
exec "$(dirname "$0")/check-layering.sh" "$@"

#!/usr/bin/env python3
"""The CPU seconds (user + system) of every compiler and linker call of a build, by package and by
target, from the log Benchmarks/first-build's wrappers write (wall user sys tool outputs...).

    python3 Benchmarks/first_build.py CALLS_LOG PACKAGE_ROOT [--top N]
"""
import argparse
import collections
import os
import re

parser = argparse.ArgumentParser()
parser.add_argument("calls")
parser.add_argument("root")
parser.add_argument("--top", type=int, default=25)
options = parser.parse_args()

# A target belongs to the dependency whose manifest declares it, else whose checkout holds a
# directory of its name; ours are the package's own Sources and Tests.
checkouts = os.path.join(options.root, ".build", "checkouts")
declaration = re.compile(r'\.(?:target|executableTarget|systemLibrary|binaryTarget)\(\s*name:\s*"([^"]+)"')
owner = {}
for package in sorted(os.listdir(checkouts)):
    manifest = os.path.join(checkouts, package, "Package.swift")
    if os.path.exists(manifest):
        for name in declaration.findall(open(manifest, errors="replace").read()):
            owner.setdefault(name, package)
for package in sorted(os.listdir(checkouts)):
    directory = os.path.join(checkouts, package, "Sources")
    if os.path.isdir(directory):
        for name in os.listdir(directory):
            owner.setdefault(name, package)
ours = set(os.listdir(os.path.join(options.root, "Sources"))) | set(os.listdir(os.path.join(options.root, "Tests")))

by_package, by_target, calls = collections.Counter(), collections.Counter(), collections.Counter()
for line in open(options.calls):
    fields = line.split()
    if len(fields) < 4 or not re.fullmatch(r"[\d.]+", fields[0]):
        continue  # the time tool's own notes, such as a signal's exit status
    cpu = float(fields[1]) + float(fields[2])
    tool, output = fields[3], (fields[4] if len(fields) > 4 else "")
    module = re.search(r"/debug/([^/]+)\.build/", output) or re.search(r"/Modules/([^/.]+)\.(?:swift|o$)", output)
    if not output or "TemporaryDirectory" in output:
        package, target = "(manifests, tool queries)", "-"
    elif module:
        target = module.group(1)
        package = "(ours)" if target in ours else owner.get(target, "?")
    elif tool == "clang":
        package, target = "(link)", os.path.basename(output)
    else:
        package, target = "?", os.path.basename(output)
    by_package[package] += cpu
    by_target[(package, target)] += cpu
    calls[package] += 1

total = sum(by_package.values())
print(f"CPU of compiler and linker calls: {total:.0f} s")
print("| package | CPU s | share | calls |\n|---|---:|---:|---:|")
for package, seconds in by_package.most_common():
    print(f"| {package} | {seconds:.0f} | {100 * seconds / total:.1f} % | {calls[package]} |")
print(f"\nThe {options.top} costliest targets:\n| package | target | CPU s | share |\n|---|---|---:|---:|")
for (package, target), seconds in by_target.most_common(options.top):
    print(f"| {package} | {target} | {seconds:.1f} | {100 * seconds / total:.1f} % |")

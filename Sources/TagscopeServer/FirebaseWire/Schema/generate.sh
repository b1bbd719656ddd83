#!/bin/sh
# Regenerates ../AppMeasurement.pb.swift and app_measurement_pb2.py from app_measurement.proto (run once;
# the output is committed).
# Needs protoc (apt-get install protobuf-compiler) and protoc-gen-swift 1.39.0 (swift build -c release
# --product protoc-gen-swift in a checkout of apple/swift-protobuf 1.39.0) on PATH.
set -e
cd "$(dirname "$0")"
protoc --swift_opt=Visibility=Internal --swift_opt=FileNaming=DropPath --swift_out=. app_measurement.proto
mv app_measurement.pb.swift ../AppMeasurement.pb.swift
swift format -i ../AppMeasurement.pb.swift
# The same schema for Python (`scripts/bench firebaseupload`'s baseline, the venv's protobuf package).
protoc --python_out=. app_measurement.proto

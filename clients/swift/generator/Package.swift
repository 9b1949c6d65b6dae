// swift-tools-version: 6.0
// The Swift client's generator, apart from the server's package so that
// building the server never builds it (OpenAPIKit and Yams: about 1.5 min on
// two cores). clients/generate builds and runs it; its version is pinned
// exactly, and Package.resolved is committed, so regenerating is repeatable.
import PackageDescription

let package = Package(
    name: "roomkeeper-client-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ]
)

// swift-tools-version: 6.0
// A Hummingbird server whose route decodes a streamed upload of a large JSON array element by
// element, in bounded memory. A package of its own, so that the library's users never resolve
// Hummingbird and SwiftNIO; see README.md.
import PackageDescription

let package = Package(
    name: "HummingbirdUpload",
    // Hummingbird 2 needs macOS 14.
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "upload-server", targets: ["upload-server"])
    ],
    dependencies: [
        // A clone's folder name is not the package's: name the path dependency.
        .package(name: "Elevate", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        // Already in Hummingbird's graph; the tests stop the server with a graceful shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        // The application: its router, the upload route and what the route answers.
        .target(
            name: "UploadServer",
            dependencies: [
                .product(name: "Elevate", package: "Elevate"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // Runs the application on a port, for trying it with curl.
        .executableTarget(name: "upload-server", dependencies: ["UploadServer"]),
        // Starts the application in process on a loopback port and uploads to it through a plain
        // socket (HummingbirdTesting would bring AsyncHTTPClient and BoringSSL into the build).
        .testTarget(
            name: "UploadServerTests",
            dependencies: [
                "UploadServer",
                .product(name: "Elevate", package: "Elevate"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

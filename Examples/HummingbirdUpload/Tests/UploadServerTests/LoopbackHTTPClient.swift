import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 POST to 127.0.0.1 over a plain blocking socket, its body written as it is
/// generated: the client holds one chunk at a time, so the test process's peak memory is the
/// server's.
///
/// It runs on a thread of its own, not on Swift concurrency's few threads, which the server's
/// route needs while the client blocks in `send`.
enum LoopbackHTTPClient {
    /// A status and the body that came with it.
    struct Response: Sendable {
        var status: Int
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Each `send` and `recv` gives up after this long, so that a stuck server fails the test
    /// instead of hanging it.
    static let ioTimeoutSeconds = 120

    /// Posts a body of `contentLength` bytes, which `writeBody` hands over in chunks, and reads
    /// the response.
    static func post(
        port: Int, path: String, contentLength: Int,
        writeBody: @escaping @Sendable (_ send: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    try exchange(port: port, path: path, contentLength: contentLength, writeBody: writeBody)
                })
            }
            thread.name = "LoopbackHTTPClient"
            thread.start()
        }
    }

    /// Posts a body held in memory.
    static func post(port: Int, path: String, body: [UInt8]) async throws -> Response {
        try await post(port: port, path: path, contentLength: body.count) { send in
            try body.withUnsafeBytes(send)
        }
    }

    private static func exchange(
        port: Int, path: String, contentLength: Int,
        writeBody: (_ send: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> Response {
        let socket = try connectedSocket(port: port)
        defer { close(socket) }
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(contentLength)\r\nConnection: close\r\n\r\n"
        var sent = 0
        do {
            try Array(head.utf8).withUnsafeBytes { try sendAll($0, to: socket) }
            try writeBody { chunk in
                try sendAll(chunk, to: socket)
                sent += chunk.count
            }
        } catch {
            // A server that answers before the end of the body (a 400) may close the connection
            // under the writes: its answer is what counts, if there is one.
            if let response = try? readResponse(from: socket) { return response }
            throw error
        }
        guard sent == contentLength else {
            throw Failure(description: "the body was \(sent) bytes, not the \(contentLength) announced")
        }
        return try readResponse(from: socket)
    }

    private static func connectedSocket(port: Int) throws -> Int32 {
        #if canImport(Darwin)
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #else
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: ioTimeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian  // 127.0.0.1
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(reason)")
        }
        return socket
    }

    private static func sendAll(_ bytes: UnsafeRawBufferPointer, to socket: Int32) throws {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)  // an EPIPE error, not a SIGPIPE that ends the test process
        #endif
        var offset = 0
        while offset < bytes.count {
            let count = send(socket, bytes.baseAddress! + offset, bytes.count - offset, flags)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    /// Reads the status line, the headers, and the body: `Content-Length` bytes, or up to the end
    /// of the connection without one.
    private static func readResponse(from socket: Int32) throws -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var contentLength: Int?
        var status = 0
        while true {
            if headEnd == nil, let end = received.firstRange(of: separator)?.upperBound {
                headEnd = end
                let lines = String(decoding: received[..<end], as: UTF8.self).split(separator: "\r\n")
                guard let statusLine = lines.first, let code = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
                else { throw Failure(description: "not an HTTP response: \(lines.first ?? "")") }
                status = code
                for line in lines.dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        contentLength = Int(parts[1].trimmingCharacters(in: .whitespaces))
                    }
                }
            }
            if let headEnd, let contentLength, received.count - headEnd >= contentLength {
                return Response(status: status, body: Array(received[headEnd..<headEnd + contentLength]))
            }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "recv: \(String(cString: strerror(errno)))")
            }
            if count == 0 {
                guard let headEnd else { throw Failure(description: "the connection closed before a response") }
                return Response(status: status, body: Array(received[headEnd...]))
            }
            received += buffer[..<count]
        }
    }
}

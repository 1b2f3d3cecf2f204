// Code written for Elevate imports only `Elevate`: it sees everything of ElevateJSON too, by this
// module's name (`Elevate.JSONValue`, `Elevate.ParserError`) as by its own.
@_exported import ElevateJSON

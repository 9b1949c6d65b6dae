// The engine hosts what RoomKit declares: whoever imports the engine
// (the server, providers, tests) sees the plugin SDK's types too. Plugins
// import RoomKit alone.
@_exported import RoomKit

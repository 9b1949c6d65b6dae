@testable import RoomServer
import Testing

/// Which tenant's share of the pool a request's leases come from (#41),
/// read from its path before routing.
@Suite struct LeaseOwnerPathTests {
    @Test func theTenantIsReadFromEveryTenantsPathShape() {
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/t/demo/audio-chatroom/room/list") == "demo")
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/t/demo/im/ws") == "demo")
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/admin/v1/tenants/demo") == "demo")
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/admin/v1/tenants/demo/rooms/12/kick") == "demo")
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/t/demo") == nil, "no route of a tenant")
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/t//x") == nil)
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/admin/v1/tenants") == nil)
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/admin/v1/tenants/") == nil)
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/metrics") == nil)
        #expect(LeaseOwnerMiddleware.tenant(inPath: "/") == nil)
    }
}

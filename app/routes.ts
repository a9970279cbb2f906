import { type RouteConfig } from '@remix-run/route-config'
import { flatRoutes } from '@remix-run/fs-routes'

export default flatRoutes({ ignoredRouteFiles: ['**/*.css.ts', '**/*.test.*', '**/*.server.ts', '**/*.schema.ts'] }) satisfies RouteConfig

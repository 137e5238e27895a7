import type { Config } from '../config/config.ts';
import type { DemoClient } from './demo-client.ts';

/**
 * What the sandbox prints when it starts. The admin token is printed only when the sandbox made
 * it (it lives under DATA_DIR); a token the operator set in ADMIN_TOKEN is theirs to keep and
 * never lands in a terminal or a log collector.
 */
export function sandboxBanner(
  config: Pick<Config, 'publicBaseUrl' | 'dataDir' | 'adminToken'>,
  adminToken: string,
  demo: DemoClient,
  created: boolean,
  /** A one-time dashboard sign-in link, when the dashboard is on. */
  dashboardLink?: string,
): string {
  const shownToken =
    config.adminToken === undefined ? adminToken : '(the ADMIN_TOKEN you set; not printed)';
  const lines = [
    '',
    `OpenIBS sandbox is running at ${config.publicBaseUrl}`,
    `  ${created ? 'Created' : 'Using'} the demo client (data in ${config.dataDir})`,
    `  OAuth client id:  ${demo.oauthClientId}`,
    `  ibs_client_id:    ${demo.ibsClientId}   (send it as the ClientID header)`,
    `  main account:     ${demo.mainAccountNumber}`,
    `  admin token:      ${shownToken}`,
    ...(dashboardLink === undefined
      ? []
      : [
          `  dashboard:        ${dashboardLink}`,
          '                    (one click signs you in, once; `npx openibs dashboard` for another)',
        ]),
    '',
    '  Get an access token:   npx openibs token',
    `  List your accounts:    curl -H "Authorization: Bearer $(npx openibs token)" \\`,
    `                           -H "ClientID: ${demo.ibsClientId}" ${config.publicBaseUrl}/accounts`,
    `  API reference:         ${config.publicBaseUrl}/docs`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

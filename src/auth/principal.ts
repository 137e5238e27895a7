/** Who is calling: an OAuth app acting for its client (the business). */
export interface Principal {
  /** The client's id: the `ibs_client_id` of the published API. */
  readonly clientId: string;
  readonly appId: string;
  /** The OAuth client id of the app (the client assertion's `sub`). */
  readonly oauthClientId: string;
}

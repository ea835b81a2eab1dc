import type { Endpoint } from './endpoint.ts';
import * as customers from './customers.ts';
import * as events from './events.ts';
import * as links from './links.ts';
import * as orders from './orders.ts';
import * as subscriptions from './subscriptions.ts';
import * as orderDetail from './order-detail.ts';
import * as refunds from './refunds.ts';
import * as reports from './reports.ts';
import * as team from './team.ts';

/**
 * Every endpoint of the contract, by resource. The server registers each (a test checks that it registers these
 * and no other route of the API outside the list of routes that predate the contract); clients call them by these
 * objects.
 */
export const contract = {
  orders: { list: orders.listOrders, export: orders.exportOrders },
  customers: { list: customers.listCustomers, export: customers.exportCustomers, get: customers.getCustomer, revokeCard: customers.revokeCustomerCard },
  subscriptions: { list: subscriptions.listSubscriptions, export: subscriptions.exportSubscriptions },
  paymentLinks: { list: links.listPaymentLinks, get: links.getPaymentLink, orders: links.listPaymentLinkOrders },
  events: { list: events.listEvents },
  orderDetail: { get: orderDetail.getOrder, addNote: orderDetail.addOrderNote },
  refunds: { list: refunds.listRefunds, export: refunds.exportRefunds },
  reports: { summary: reports.reportSummary },
  keys: { rotate: team.rotateKeys },
  team: {
    signIn: team.signIn,
    signInSecondFactor: team.signInSecondFactor,
    signInEnrolTotp: team.signInEnrolTotp,
    signInPasskeyOptions: team.signInPasskeyOptions,
    signInPasskey: team.signInPasskey,
    acceptInvitation: team.acceptInvitation,
    resetPassword: team.resetPassword,
    signOut: team.signOut,
    me: team.me,
    listSessions: team.listSessions,
    revokeSession: team.revokeSession,
    stepUp: team.stepUp,
    stepUpPasskeyOptions: team.stepUpPasskeyOptions,
    startTotp: team.startTotp,
    confirmTotp: team.confirmTotp,
    disableTotp: team.disableTotp,
    regenerateBackupCodes: team.regenerateBackupCodes,
    passkeyRegistrationOptions: team.passkeyRegistrationOptions,
    registerPasskey: team.registerPasskey,
    removePasskey: team.removePasskey,
    listMembers: team.listMembers,
    inviteMember: team.inviteMember,
    changeRole: team.changeRole,
    removeMember: team.removeMember,
    setTwoFactorRequirement: team.setTwoFactorRequirement,
    listAudit: team.listAudit,
  },
} as const satisfies Record<string, Record<string, Endpoint>>;

export function everyEndpoint(): Endpoint[] {
  return Object.values(contract).flatMap((resource) => Object.values(resource) as Endpoint[]);
}

/** Words many views share: buttons, states, the language switch. */
export const common = {
  save: 'Save',
  cancel: 'Cancel',
  dismiss: 'Dismiss',
  close: 'Close',
  delete: 'Delete',
  edit: 'Edit',
  remove: 'Remove',
  add: 'Add',
  back: 'Back',
  next: 'Next',
  previous: 'Previous',
  loading: 'Loading…',
  none: 'None',
  yes: 'Yes',
  no: 'No',
  language: 'Language',
  /** A member's role in a room, where a sentence names it. */
  roomRoles: {
    admin: 'admin',
    member: 'member',
    guest: 'guest',
  },
};

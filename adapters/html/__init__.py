"""The shared base of the HTML engines: the page's elements (`dom`), the profile's shape (`profile`), named hooks
(`hooks`), posts read from a page (`extract`, `bounded`), page checks (`pagechecks`), forms (`forms`), topics
(`topics`), the inbox (`inbox`), anti-bot fields (`antibot`), a forum table's profile overrides (`overrides`)
and the adapter base that holds them (`forum`)."""
